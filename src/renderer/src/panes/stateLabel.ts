/** The state badge of an entry: glyph, word, tone and tooltip, from its run state or agent status. */
import type { ProcessInfo } from '../../../shared/model';
import { isSettledReady } from '../../../shared/ready';

const STATE_GLYPHS: Record<string, string> = {
  stopped: '○',
  waiting: '⧗',
  starting: '◌',
  ready: '●',
  running: '●',
  unhealthy: '◑',
  completed: '✓',
  error: '✕',
};
/** `running` of a command that declares no readiness check: up, not known to serve anything. */
const UNCHECKED_RUNNING_GLYPH = '▶';
const AGENT_GLYPHS: Record<string, string> = { starting: '◌', idle: '○', active: '◐', waiting: '⚠', stuck: '⏸', dead: '✕' };

/**
 * An agent a person stopped, or one not started in this app run (a restored entry waiting for
 * Resume), is stopped: red "dead" is kept for an agent whose run ended on its own.
 */
export function isAgentStoppedOnPurpose(p: ProcessInfo): boolean {
  return p.agent?.primary === 'dead' && p.state === 'stopped' && (p.lastExit === undefined || p.message === 'Stopped');
}

export function stateLabel(p: ProcessInfo): { glyph: string; text: string; tone: string; title: string } {
  if (isAgentStoppedOnPurpose(p)) {
    const title = p.lastExit ? 'Stopped' : 'Not started in this run';
    return { glyph: STATE_GLYPHS.stopped, text: 'stopped', tone: 'stopped', title };
  }
  if (p.agent) {
    const detail = p.agent.detail ? ` · ${p.agent.detail.replace('_', ' ')}` : '';
    const title = p.agent.confidenceReason ? `${p.agent.reason} (low confidence: ${p.agent.confidenceReason})` : p.agent.reason;
    return { glyph: AGENT_GLYPHS[p.agent.primary] ?? '?', text: `${p.agent.primary}${detail}`, tone: p.agent.primary, title };
  }
  // Stopped by its worktree's idle stop: resting on purpose, not failed (a start brings it back).
  if (p.idleStopped && p.state === 'stopped')
    return { glyph: STATE_GLYPHS.stopped, text: 'stopped · idle', tone: 'stopped', title: p.message };
  // The entry's state, not only its readiness: `waiting` and a blocked start come from its dependencies.
  const phase = p.state;
  const message = p.message;
  if (phase === 'waiting') return { glyph: STATE_GLYPHS.waiting, text: message, tone: 'dependencies', title: message };
  if (phase === 'running' && p.readiness?.expectsReadiness === false)
    return { glyph: UNCHECKED_RUNNING_GLYPH, text: 'running', tone: 'running', title: message };
  if (phase === 'completed')
    return { glyph: STATE_GLYPHS.completed, text: message.replace(/^Completed/, 'completed'), tone: 'completed', title: message };
  if (phase === 'unhealthy') return { glyph: STATE_GLYPHS.unhealthy, text: 'unhealthy', tone: 'unhealthy', title: message };
  // Within its settle window a ready line can still be overturned by an error line: not green yet.
  if (phase === 'ready' && p.readiness !== undefined && !isSettledReady(p.readiness))
    return { glyph: STATE_GLYPHS.starting, text: 'starting', tone: 'starting', title: `${message} (confirming it stays up)` };
  return { glyph: STATE_GLYPHS[phase] ?? '?', text: phase, tone: phase, title: message };
}
