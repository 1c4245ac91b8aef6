/** Shared scratchpads: revisioned notes per project (see core/scratchpads). */
import type { WriteOptions } from '../../scratchpads';
import { callerKey } from '../identity';
import { defineTool, type ToolCall } from '../toolContext';

/** Every change names its author and may insist on the revision the caller read. */
function writeOptions(expectedRevision: number | undefined, call: ToolCall): WriteOptions {
  return { expectedRevision, by: callerKey(call.caller) };
}

/** Scratchpads are the project's shared notes: every token reads and writes them (writes are signed). */
const SHARED: { open: string } = { open: "the project's shared notes, open to every agent by design; each change names its author" };

const scratchpadList = defineTool({
  name: 'scratchpad_list',
  title: 'List scratchpads',
  summary: "The project's shared scratchpads.",
  description: "The project's shared scratchpads: name, revision, size, when and by whom last changed.",
  annotations: { readOnlyHint: true },
  requires: SHARED,
  run: async (_args, _call, ctx) => ({ scratchpads: await ctx.scratchpads.list() }),
});

const scratchpadRead = defineTool({
  name: 'scratchpad_read',
  title: 'Read a scratchpad',
  summary: 'Content and revision of a scratchpad.',
  description: 'Content and revision of a scratchpad. Pass the revision as expected_revision when you write it back.',
  annotations: { readOnlyHint: true },
  requires: SHARED,
  run: ({ name }, _call, ctx) => ctx.scratchpads.read(name),
});

const scratchpadWrite = defineTool({
  name: 'scratchpad_write',
  title: 'Write a scratchpad',
  summary: 'Replace a scratchpad, optionally only at an expected revision.',
  description:
    "Replace a scratchpad's content (creates it). With expected_revision the write only happens if nobody changed it since you read that revision (0: only if it does not exist); otherwise it fails with the current revision and nothing is lost. Returns the new revision.",
  requires: SHARED,
  run: ({ name, content, expected_revision }, call, ctx) => ctx.scratchpads.write(name, content, writeOptions(expected_revision, call)),
});

const scratchpadAppend = defineTool({
  name: 'scratchpad_append',
  title: 'Append to a scratchpad',
  summary: 'Append to a scratchpad.',
  description: 'Add text at the end of a scratchpad (creates it). Appends never overwrite each other. Returns the new revision.',
  requires: SHARED,
  run: ({ name, content, expected_revision }, call, ctx) => ctx.scratchpads.append(name, content, writeOptions(expected_revision, call)),
});

const scratchpadDelete = defineTool({
  name: 'scratchpad_delete',
  title: 'Delete a scratchpad',
  summary: 'Delete a scratchpad.',
  description: 'Delete a scratchpad (with expected_revision: only if it is still at that revision).',
  annotations: { destructiveHint: true },
  requires: SHARED,
  run: ({ name, expected_revision }, call, ctx) => ctx.scratchpads.delete(name, writeOptions(expected_revision, call)),
});

export const scratchpadTools = [scratchpadList, scratchpadRead, scratchpadWrite, scratchpadAppend, scratchpadDelete];
