/** An agent entry for every agent preset whose CLI is installed (on PATH). */
import type { ProposedEntry } from '../../../../shared/proposal';
import { BUILTIN_PRESETS } from '../../agents';
import type { ProposalContext } from './context';

export function proposeInstalledAgents(ctx: ProposalContext): ProposedEntry[] {
  return [...BUILTIN_PRESETS.values()]
    .filter((preset) => ctx.isOnPath(preset.command))
    .map((preset) => ({
      section: 'agents' as const,
      name: preset.id,
      source: `${preset.displayName} (\`${preset.command}\` is on your PATH)`,
      selected: true,
      note: 'Agents do not start on their own; start them from the grid',
      config: { preset: preset.id },
    }));
}
