/**
 * Project trust through the real core (createCore: real PTYs, the real MCP endpoint, trust kept in
 * the data directory): a project's switchboard.json runs nothing until a person trusted exactly
 * what it runs, a live edit starts nothing new, and an agent's own token cannot grant trust.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type CoreHandle } from '../../src/main/core/composition';
import { TRUST_FILE } from '../../src/main/core/trust';
import type { ProjectTrustState } from '../../src/shared/trust';
import { callError, callOk, connectClient } from '../mcp/mcpHarness';
import { waitForOutput } from '../support/wait';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

function dirs(config: unknown): { projectDir: string; dataDir: string; root: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sb-trust-')));
  const projectDir = join(root, 'project');
  const dataDir = join(root, 'data');
  mkdirSync(projectDir);
  writeConfig(projectDir, config);
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  return { projectDir, dataDir, root };
}

function writeConfig(projectDir: string, config: unknown): void {
  writeFileSync(join(projectDir, 'switchboard.json'), JSON.stringify(config));
}

async function open(projectDir: string, dataDir: string, grantTrust = false): Promise<CoreHandle> {
  const handle = await createCore({ projectDir, dataDir, watchConfig: false, killGraceMs: 500, grantTrust });
  cleanups.push(() => handle.dispose());
  return handle;
}

const CONFIG = {
  processes: {
    web: { command: 'bash', args: ['-c', 'echo web-up; exec cat'], env: { PORT: '3999' } },
    jobs: { command: 'echo jobs-ran && exec cat' },
  },
  agents: { lead: { preset: 'generic', command: 'cat', autoStart: true } },
};

describe('project trust', () => {
  it('first open: nothing starts, MCP shows every command that would run, start is refused until a person trusts it', async () => {
    const { projectDir, dataDir } = dirs(CONFIG);
    const sb = await open(projectDir, dataDir);
    const core = sb.core;
    expect(core.listProcesses().map((p) => [p.configName, p.state, p.pid, p.trust])).toEqual([
      ['web', 'stopped', undefined, 'new'],
      ['jobs', 'stopped', undefined, 'new'],
      ['lead', 'stopped', undefined, 'new'],
    ]);

    const app = await connectClient(sb.mcp.url, sb.mcp.token);
    cleanups.push(() => app.close());
    const status = await callOk<{ trust: ProjectTrustState; processes: Array<{ trust?: string }> }>(app, 'get_project_status');
    expect(status.trust).toMatchObject({ trusted: false, firstOpen: true });
    expect(status.trust.pending.map((r) => [r.key, r.change, r.argv])).toEqual([
      ['processes.web', 'new', ['bash', '-c', 'echo web-up; exec cat']],
      ['processes.jobs', 'new', ['/bin/sh', '-c', 'echo jobs-ran && exec cat']],
      ['agents.lead', 'new', ['cat']],
    ]);
    expect(status.trust.pending[0]).toMatchObject({ cwd: projectDir, env: { PORT: '3999' }, autoStart: true, kind: 'command' });
    expect(status.processes.every((p) => p.trust === 'not trusted yet')).toBe(true);

    const web = core.listProcesses().find((p) => p.configName === 'web')!;
    const refused = await callError(app, 'start_process', { process_id: web.id });
    expect(refused.text).toContain('processes.web (bash -c echo web-up; exec cat) is not trusted yet');
    expect(refused.structured).toMatchObject({ error: { code: 'not_trusted' } });
    await expect(core.restartProcess(web.id)).rejects.toThrow(/not trusted yet/);
    expect(core.describe(web.id).pid).toBeUndefined();
    expect(existsSync(join(dataDir, TRUST_FILE))).toBe(false);
  });

  it("an agent's own token cannot grant trust; the app token can, and then the auto-start entries start", async () => {
    const { projectDir, dataDir } = dirs(CONFIG);
    const sb = await open(projectDir, dataDir);
    const agent = await sb.core.spawnAgent({ preset: 'generic', argv: ['cat'], name: 'some-agent' });
    const agentClient = await connectClient(sb.mcp.url, sb.mcp.service.identity.tokenFor(agent.id));
    cleanups.push(() => agentClient.close());
    const denied = await callError(agentClient, 'trust_project');
    expect(denied.text).toMatch(/cannot grant trust with its own token/);
    expect(sb.core.trustState().pending).toHaveLength(3);

    const app = await connectClient(sb.mcp.url, sb.mcp.token);
    cleanups.push(() => app.close());
    const unknown = await callError(app, 'trust_project', { entries: ['processes.nope'] });
    expect(unknown.text).toContain('waiting: processes.web, processes.jobs, agents.lead');
    const state = await callOk<ProjectTrustState>(app, 'trust_project', { entries: ['processes.web', 'processes.jobs'] });
    expect(state.pending.map((r) => r.key)).toEqual(['agents.lead']);
    const [web, jobs, lead] = sb.core.listProcesses();
    await waitForOutput(sb.core.entry(web.id), /web-up/);
    await waitForOutput(sb.core.entry(jobs.id), /jobs-ran/);
    expect(sb.core.describe(lead.id)).toMatchObject({ state: 'stopped', trust: 'new' });
    // An untrusted config agent cannot be started as a new instance either: spawn_agent names it, and is refused.
    const entriesBefore = sb.core.listProcesses().length;
    const spawnRefused = await callError(app, 'spawn_agent', { agent: 'lead' });
    expect(spawnRefused.text).toContain('agents.lead (cat) is not trusted yet');
    expect(spawnRefused.structured).toMatchObject({ error: { code: 'not_trusted' } });
    expect(sb.core.listProcesses()).toHaveLength(entriesBefore);

    // Stored in the app's data directory (0600), keyed by the project, never in the project itself.
    const file = join(dataDir, TRUST_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { projects: Record<string, Record<string, string>> };
    expect(Object.keys(stored.projects[projectDir]).sort()).toEqual(['folder', 'processes.jobs', 'processes.web']);
  });

  it('a trusted project opens and auto-starts without asking; only a changed or new entry is asked about and starts nothing', async () => {
    const { projectDir, dataDir } = dirs(CONFIG);
    const first = await open(projectDir, dataDir);
    await first.core.grantTrust();
    await first.dispose();

    const sb = await open(projectDir, dataDir);
    expect(sb.core.trustState()).toEqual({ trusted: true, folderTrusted: true, firstOpen: false, pending: [] });
    const [web, jobs] = sb.core.listProcesses();
    await waitForOutput(sb.core.entry(web.id), /web-up/);
    const webPid = sb.core.describe(web.id).pid;

    // Live edit: web's command changes, a new entry appears, jobs only changes its readiness settings.
    writeConfig(projectDir, {
      processes: {
        web: { command: 'bash', args: ['-c', 'echo EVIL; exec cat'], env: { PORT: '3999' } },
        jobs: { command: 'echo jobs-ran && exec cat', readyPatterns: ['jobs-ran'] },
        added: { command: 'echo added-ran; exec cat' },
      },
      agents: CONFIG.agents,
    });
    await sb.core.reloadConfig();
    const state = sb.core.trustState();
    expect(state.pending.map((r) => [r.key, r.change])).toEqual([
      ['processes.web', 'changed'],
      ['processes.added', 'new'],
    ]);
    expect(state.pending[0]).toMatchObject({
      argv: ['bash', '-c', 'echo EVIL; exec cat'],
      previous: { argv: ['bash', '-c', 'echo web-up; exec cat'] },
    });
    // web keeps running what was trusted: no restart into the new command.
    expect(sb.core.describe(web.id)).toMatchObject({
      pid: webPid,
      runId: 1,
      trust: 'changed',
      argv: ['bash', '-c', 'echo web-up; exec cat'],
    });
    expect(sb.core.describe(jobs.id).trust).toBeUndefined();
    const added = sb.core.listProcesses().find((p) => p.configName === 'added')!;
    expect(added).toMatchObject({ state: 'stopped', trust: 'new' });
    await expect(sb.core.restartProcess(web.id)).rejects.toThrow(/processes\.web .* is not trusted yet/);

    // Trusting the change applies it: web restarts into the new command, added starts.
    await sb.core.grantTrust();
    await waitForOutput(sb.core.entry(web.id), /EVIL/);
    await waitForOutput(sb.core.entry(added.id), /added-ran/);
    expect(sb.core.describe(web.id).runId).toBe(2);
  });

  it('a command changed while the app was closed is asked about as "changed", a new entry as "new"', async () => {
    const { projectDir, dataDir } = dirs(CONFIG);
    const first = await open(projectDir, dataDir);
    await first.core.grantTrust();
    await first.dispose();

    writeConfig(projectDir, {
      processes: { ...CONFIG.processes, web: { command: 'bash', args: ['-c', 'echo EVIL; exec cat'] }, added: { command: 'cat' } },
      agents: CONFIG.agents,
    });
    const sb = await open(projectDir, dataDir);
    expect(sb.core.trustState().pending.map((r) => [r.key, r.change])).toEqual([
      ['processes.web', 'changed'],
      ['processes.added', 'new'],
    ]);
    const byName = (name: string) => sb.core.listProcesses().find((p) => p.configName === name)!;
    expect(byName('web')).toMatchObject({ state: 'stopped', trust: 'changed', argv: ['bash', '-c', 'echo EVIL; exec cat'] });
    expect(byName('added')).toMatchObject({ state: 'stopped', trust: 'new' });
    expect(byName('jobs').trust).toBeUndefined();
  });

  it('a manual start of an untrusted entry trusts that entry alone (the UI shows its command first)', async () => {
    const { projectDir, dataDir } = dirs(CONFIG);
    const sb = await open(projectDir, dataDir);
    const jobs = sb.core.listProcesses().find((p) => p.configName === 'jobs')!;
    await sb.core.trustAndStart(jobs.id);
    await waitForOutput(sb.core.entry(jobs.id), /jobs-ran/);
    expect(sb.core.trustState().pending.map((r) => r.key)).toEqual(['processes.web', 'agents.lead']);
    expect(sb.core.listProcesses().find((p) => p.configName === 'web')!.pid).toBeUndefined();
  });

  it('createCore grantTrust (serve --trust) trusts and starts the config as it is at startup', async () => {
    const { projectDir, dataDir } = dirs(CONFIG);
    const sb = await open(projectDir, dataDir, true);
    expect(sb.core.trustState().trusted).toBe(true);
    const [web] = sb.core.listProcesses();
    await waitForOutput(sb.core.entry(web.id), /web-up/);
  });

  it('a trust file someone corrupted trusts nothing (asked again, nothing runs)', async () => {
    const { projectDir, dataDir } = dirs(CONFIG);
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, TRUST_FILE), '{"version": 1, "projects": {"x": 5}');
    const sb = await open(projectDir, dataDir);
    expect(sb.core.trustState()).toMatchObject({ trusted: false, firstOpen: true });
    expect(sb.core.listProcesses().every((p) => p.pid === undefined)).toBe(true);
  });
});
