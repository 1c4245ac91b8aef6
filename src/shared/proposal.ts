/**
 * First run: entries Switchboard proposes for a folder without switchboard.json, found in what the
 * project already declares (package.json scripts, Procfile, manage.py, …). The user ticks what to
 * keep and the selection is written as switchboard.json.
 */
import { z } from 'zod';
import { ProcessConfigSchema } from './config';
import { AgentConfigSchema } from './agentConfig';

const ProposalBase = {
  /** Entry name as it will appear in switchboard.json (unique within the proposal). */
  name: z.string().regex(/^[A-Za-z0-9][\w.-]*$/),
  /** Where it came from, for a person: `package.json script "dev"`, `Procfile.dev "worker"`. */
  source: z.string(),
  /** Ticked by default: the project's main dev processes are, auxiliary ones are not. */
  selected: z.boolean(),
  /** Why it is not ticked, or what to check before keeping it. */
  note: z.string().optional(),
};

export const ProposedEntrySchema = z.discriminatedUnion('section', [
  z.strictObject({ ...ProposalBase, section: z.literal('processes'), config: ProcessConfigSchema }),
  z.strictObject({ ...ProposalBase, section: z.literal('agents'), config: AgentConfigSchema }),
]);
export type ProposedEntry = z.infer<typeof ProposedEntrySchema>;

export interface ConfigProposal {
  projectDir: string;
  /** True when the folder already has a switchboard.json (nothing is proposed then). */
  hasConfig: boolean;
  entries: ProposedEntry[];
}
