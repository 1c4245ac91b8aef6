/**
 * The `resume` policy and project trust across a restart of the real core (createCore on the same
 * data dir, real PTYs, the real MCP endpoint). The agent is a stand-in under the claude preset: it
 * stores its conversation where Claude Code does and prints its arguments, so the resume
 * arguments are visible; the real CLIs resume in claudeResume/codexResume.test.ts.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type CoreHandle } from '../../src/main/core/composition';
import { callError, callOk, connectClient } from '../mcp/mcpHarness';
import { waitForOutput } from '../support/wait';

const STORE_CONVERSATION = 'mkdir -p "$CLAUDE_CONFIG_DIR/projects/p" && touch "$CLAUDE_CONFIG_DIR/projects/p/$2.jsonl"';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

function setUp(): { projectDir: string; dataDir: string; config: (extra?: Record<string, unknown>) => unknown } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'continuity-policy-')));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const projectDir = join(root, 'project');
  mkdirSync(projectDir);
  const config = (extra: Record<string, unknown> = {}) => ({
    agents: {
      lead: {
        preset: 'claude',
        command: '/bin/sh',
        args: ['-c', `${STORE_CONVERSATION}; echo "args: $*"; exec sleep 600`, 'stand-in'],
        env: { CLAUDE_CONFIG_DIR: join(root, 'claude-config') },
        resume: 'auto',
        ...extra,
      },
    },
  });
  return { projectDir, dataDir: join(root, 'data'), config };
}

async function open(projectDir: string, dataDir: string, grantTrust: boolean): Promise<CoreHandle> {
  const handle = await createCore({ projectDir, dataDir, watchConfig: false, killGraceMs: 500, grantTrust });
  cleanups.push(() => handle.dispose());
  return handle;
}

/** Runs the agent once so the data dir knows it ran with a stored conversation; returns its id and session. */
async function firstRun(projectDir: string, dataDir: string): Promise<{ id: string; session: string }> {
  const first = await open(projectDir, dataDir, true);
  const lead = first.core.listProcesses()[0];
  await first.core.startProcess(lead.id);
  const printed = await waitForOutput(first.core.entry(lead.id), /args: --session-id ([0-9a-f-]{36})/);
  const session = /--session-id ([0-9a-f-]{36})/.exec(printed)![1];
  cleanups.pop(); // disposed here: the quit happens while the agent runs
  await first.dispose();
  return { id: lead.id, session };
}

describe('resume policy after a restart', () => {
  it('resume "auto": an agent that was running at quit is resumed at launch, under its id, with --resume <session>', async () => {
    const { projectDir, dataDir, config } = setUp();
    writeFileSync(join(projectDir, 'switchboard.json'), JSON.stringify(config()));
    const { id, session } = await firstRun(projectDir, dataDir);

    const second = await open(projectDir, dataDir, false);
    const lead = second.core.describe(id);
    expect(lead).toMatchObject({ id, configName: 'lead' });
    expect(lead.restoredAt).toBeGreaterThan(0);
    await waitForOutput(second.core.entry(id), new RegExp(`args: --resume ${session}`));
    expect(second.core.describe(id).session).toMatchObject({ id: session, resumable: false, reason: 'running' });
  }, 60_000);

  it('restored entries respect project trust: a changed entry neither auto-resumes nor resumes by hand', async () => {
    const { projectDir, dataDir, config } = setUp();
    writeFileSync(join(projectDir, 'switchboard.json'), JSON.stringify(config()));
    const { id, session } = await firstRun(projectDir, dataDir);

    // Between the runs the entry's command changed: it waits for a person's trust again.
    writeFileSync(
      join(projectDir, 'switchboard.json'),
      JSON.stringify(config({ args: ['-c', 'echo "changed: $*"; exec sleep 600', 'x'] })),
    );
    const second = await open(projectDir, dataDir, false);
    expect(second.core.describe(id)).toMatchObject({ state: 'stopped', session: { id: session, resumable: true } });
    expect(second.core.describe(id).trust).toBeDefined(); // waits for trust
    const app = await connectClient(second.mcp.url, second.mcp.token);
    cleanups.push(() => app.close());
    const refused = await callError(app, 'resume_process', { process_id: id });
    expect(refused.structured).toMatchObject({ error: { code: 'not_trusted' } });
    expect(second.core.describe(id).pid).toBeUndefined();

    // Trusted by a person, Resume continues the same conversation with the new command.
    await callOk(app, 'trust_project', {});
    await callOk(app, 'resume_process', { process_id: id });
    await waitForOutput(second.core.entry(id), new RegExp(`changed: --resume ${session}`));
  }, 60_000);
});
