import type { ProcessInfo } from '../../../shared/model';
import { run } from '../app/store';

const SOURCE_WORDS = {
  toggle: 'set here',
  agent: 'its switchboard.json entry',
  project: 'the project settings',
  default: 'the default',
} as const;

/**
 * An agent's continue-at-reset setting (docs/agent-status.md, "Continue at reset"), through the
 * same core method as MCP set_continue_at_reset: on, a limit continues by itself at its reset.
 */
export function ContinueAtResetToggle({ process }: { process: ProcessInfo }) {
  const setting = process.continueAtReset;
  if (process.kind !== 'agent' || !setting) return null;
  const title = `Continue by itself at a usage limit: ${setting.enabled ? 'on' : 'off'} (${SOURCE_WORDS[setting.source]})`;
  return (
    <button
      className={setting.enabled ? 'continue-at-reset on' : 'continue-at-reset'}
      title={title}
      aria-label={`Continue ${process.name} at its limit's reset`}
      aria-pressed={setting.enabled}
      data-testid="continue-at-reset"
      onClick={() => void run((c) => c.call('setContinueAtReset', { id: process.id, enabled: !setting.enabled }))}
    >
      ⟳
    </button>
  );
}
