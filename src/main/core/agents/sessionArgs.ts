/**
 * The argv of one agent run from its definition and the preset's resume data: a fresh run of a CLI
 * whose session id Switchboard assigns gets `startArgs`, a resumed run `resumeArgs`.
 */
import { SESSION_PLACEHOLDER, type ResumeSupport } from './agentPreset';

export type RunIntent = { kind: 'fresh'; sessionId?: string } | { kind: 'resume'; sessionId: string };

export function argvForRun(resume: ResumeSupport, argv: readonly string[], intent: RunIntent): string[] {
  if (!resume.supported || !intent.sessionId) return [...argv];
  const template = intent.kind === 'resume' ? resume.resumeArgs : (resume.startArgs ?? []);
  const extra = template.map((arg) => arg.split(SESSION_PLACEHOLDER).join(intent.sessionId));
  if (extra.length === 0) return [...argv];
  return resume.placement === 'subcommand' ? [argv[0], ...extra, ...argv.slice(1)] : [...argv, ...extra];
}
