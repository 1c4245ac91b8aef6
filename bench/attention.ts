/**
 * Prompt on screen → push, webhook and ntfy sent (issue 43's benchmark). A process in a real PTY,
 * spawned by a project's core under the claude preset, replays a recorded Claude Code permission
 * prompt (`dev-permission-yes.cast`): its thinking screen, the prompt, the approval and the answer,
 * in rounds. The project is open in a host workspace watched by the attention service, as in `serve`,
 * with a paired device subscribed at a local Web Push stand-in (which decrypts what it gets), a
 * webhook and an ntfy receiver. From the moment the prompt's bytes reach the core (a private OSC
 * marker in the same write): (a) the status tracker's transition to waiting (the baseline, same run,
 * same tracker), (b) the push received, (c) the webhook POST received, (d) the ntfy publish received.
 */
import { createServer, type Server } from 'node:http';
import { globalAgent } from 'node:https';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AttentionService } from '../src/main/core/attention';
import { Devices } from '../src/main/core/devices';
import { createHostWorkspace } from '../src/main/core/workspace';
import type { AgentStatusInfo } from '../src/shared/status';
import { startPushStandIn } from '../test/devices/pushStandIn';
import { makeTestCertificate } from '../test/support/netns';
import { percentile, type BenchRow } from './report';

const ROUNDS = 10;
const CAST = '/work/shared/recordings/dev-permission-yes.cast';
/** Marks in the recording: the thinking that leads to the prompt, the prompt, the approval. */
const THINKING_AT = 5.387;
const PROMPT_AT = 6.971;
const APPROVED_AT = 12.988;
/** How long the prompt stays on screen per round (the recording's 6 s, shortened). */
const PROMPT_HOLD_MS = 2_000;
/** Other pauses of the recording (mostly ~100 ms) are capped at this. */
const GAP_CAP_MS = 250;
/** Past the start-up grace (2.5 s) before the first round. */
const FIRST_ROUND_AFTER_MS = 3_500;
const GOAL_MS = 1_000;

/** The replaying process: start-up once, then per round thinking → prompt (marked) → approval → answer. */
const PLAYER = `
const events = JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8'));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mark = (name) => '\\x1b]7777;' + name + '\\x07';
(async () => {
  for (const e of events.startup) process.stdout.write(e.data);
  await sleep(${FIRST_ROUND_AFTER_MS});
  for (let i = 0; i < ${ROUNDS}; i++) {
    let last = events.round[0].at;
    for (const e of events.round) {
      const gap = e.at - last;
      last = e.at;
      await sleep(e.approval ? ${PROMPT_HOLD_MS} : Math.min(gap, ${GAP_CAP_MS}));
      process.stdout.write(e.prompt ? mark('prompt-' + i) + e.data : e.data);
    }
    await sleep(${GAP_CAP_MS});
  }
  process.stdout.write(mark('done'));
  await sleep(60000);
})();
`;

interface CastEvent {
  at: number;
  data: string;
  prompt?: boolean;
  approval?: boolean;
}

/** The recording's output split for the player: start-up, then one round (times in ms). */
function castEvents(): { startup: CastEvent[]; round: CastEvent[] } {
  const out = readFileSync(CAST, 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as [number, string, string])
    .filter(([, kind]) => kind === 'o');
  const startup = out.filter(([at]) => at < THINKING_AT).map(([at, , data]) => ({ at: at * 1000, data }));
  const round: CastEvent[] = out.filter(([at]) => at >= THINKING_AT).map(([at, , data]) => ({ at: at * 1000, data }));
  const prompt = round.find((e) => e.at >= PROMPT_AT * 1000);
  const approval = round.find((e) => e.at >= APPROVED_AT * 1000);
  if (!prompt || !approval) throw new Error(`${CAST}: no prompt or approval output`);
  prompt.prompt = true;
  approval.approval = true;
  return { startup, round };
}

async function receiver(): Promise<{ url: string; hits: { method: string; body: string; at: number }[]; server: Server }> {
  const hits: { method: string; body: string; at: number }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push({ method: req.method ?? '', body, at: Date.now() });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, hits, server };
}

const PROMPT_MARKER = new RegExp(`${String.fromCharCode(27)}\\]7777;(prompt-(\\d+)|done)${String.fromCharCode(7)}`, 'u');

interface Samples {
  waiting: number[];
  push: number[];
  webhook: number[];
  ntfy: number[];
  /** Per round: each channel's arrival minus the same round's transition to waiting. */
  delta: { push: number[]; webhook: number[]; ntfy: number[] };
  /** Rounds in which a side never arrived before the next prompt. */
  missed: { waiting: number; push: number; webhook: number; ntfy: number };
}

export async function benchAttention(): Promise<BenchRow[]> {
  if (!existsSync(CAST)) return [];
  const root = mkdtempSync(join(tmpdir(), 'switchboard-bench-attention-'));
  const dir = (name: string) => (mkdirSync(join(root, name)), join(root, name));
  const pushCert = makeTestCertificate(dir('push'), '127.0.0.1');
  // The push stand-in's private CA, trusted by this process's HTTPS requests (serve: NODE_EXTRA_CA_CERTS).
  globalAgent.options.ca = readFileSync(pushCert.cert);
  const push = await startPushStandIn(pushCert);
  const webhook = await receiver();
  const ntfy = await receiver();
  const dataDir = dir('data');
  const projectDir = dir('project');
  const host = createHostWorkspace({ dataDir, roots: [root] });
  const s: Samples = {
    waiting: [],
    push: [],
    webhook: [],
    ntfy: [],
    delta: { push: [], webhook: [], ntfy: [] },
    missed: { waiting: 0, push: 0, webhook: 0, ntfy: 0 },
  };
  let attention: AttentionService | undefined;
  try {
    const project = await host.workspace.open(projectDir, { grantTrust: true });
    const devices = new Devices({ dataDir, publicUrl: 'https://switchboard.bench.invalid' });
    const logged: string[] = [];
    attention = new AttentionService({
      workspace: host.workspace,
      devices,
      dataDir,
      notifyUrls: [`${webhook.url}/hook`, `ntfy+${ntfy.url}/sb_topic`],
      log: (line) => logged.push(line),
    });
    const offer = await devices.startPairing();
    const { device } = devices.pair(offer.code, 'Phone');
    devices.subscribe(device, push.subscribe());

    const file = join(root, 'cast.json');
    writeFileSync(file, JSON.stringify(castEvents()));
    const core = project.handle.core;
    const info = await core.spawnAgent({
      preset: 'claude',
      name: 'asker',
      argv: [process.execPath, '-e', PLAYER, file],
      env: {},
      cwd: root,
    });
    const prompts: number[] = [];
    const waitingAt: (number | undefined)[] = [];
    let done: () => void = () => {};
    const finished = new Promise<void>((resolve) => (done = resolve));
    core.entry(info.id).onDidWriteOutput((chunk) => {
      const m = PROMPT_MARKER.exec(chunk.text);
      if (!m) return;
      if (m[1] === 'done') return done();
      prompts[Number(m[2])] = Date.now();
    });
    core.statusTrackerOf(info.id).onDidChangeStatus((st: AgentStatusInfo) => {
      const round = prompts.length - 1;
      if (round < 0 || st.primary !== 'waiting' || waitingAt[round] !== undefined) return;
      waitingAt[round] = Date.now();
    });
    await finished;
    await new Promise((r) => setTimeout(r, 500));

    // Each side's first arrival after a round's prompt and before the next one.
    const firstIn = (times: number[], i: number) => {
      const end = prompts[i + 1] ?? Infinity;
      return times.find((t) => t >= prompts[i] && t < end);
    };
    const pushes = push.received.filter((p) => p.payload.event === 'attention').map((p) => p.at);
    const hooks = webhook.hits
      .filter((h) => h.method === 'POST' && (JSON.parse(h.body) as { event: string }).event === 'attention')
      .map((h) => h.at);
    const publishes = ntfy.hits.filter((h) => h.method === 'POST').map((h) => h.at);
    for (let i = 0; i < ROUNDS; i++) {
      if (prompts[i] === undefined) {
        for (const k of ['waiting', 'push', 'webhook', 'ntfy'] as const) s.missed[k]++;
        continue;
      }
      const sides = { waiting: waitingAt[i], push: firstIn(pushes, i), webhook: firstIn(hooks, i), ntfy: firstIn(publishes, i) };
      for (const k of ['waiting', 'push', 'webhook', 'ntfy'] as const) {
        const t = sides[k];
        if (t === undefined || (k === 'waiting' && (t < prompts[i] || t >= (prompts[i + 1] ?? Infinity)))) s.missed[k]++;
        else s[k].push(t - prompts[i]);
      }
      for (const k of ['push', 'webhook', 'ntfy'] as const) {
        const t = sides[k];
        if (t !== undefined && sides.waiting !== undefined) s.delta[k].push(t - sides.waiting);
      }
    }
    if (logged.length > 0) process.stderr.write(`bench attention: ${logged.slice(0, 3).join('\n')}\n`);
  } finally {
    attention?.dispose();
    await host.dispose();
    await push.close();
    webhook.server.close();
    ntfy.server.close();
    rmSync(root, { recursive: true, force: true });
  }

  const baseline = percentile(s.waiting, 95);
  const rows: BenchRow[] = [
    {
      section: 'attention',
      name: `prompt → tracker waiting, p50 ${percentile(s.waiting, 50).toFixed(0)} ms (baseline; ${s.waiting.length}/${ROUNDS} rounds)`,
      value: baseline,
      unit: 'ms',
    },
  ];
  for (const [k, label] of [
    ['push', 'Web Push received'],
    ['webhook', 'webhook POST received'],
    ['ntfy', 'ntfy publish received'],
  ] as const) {
    const p95 = percentile(s[k], 95);
    const p50 = percentile(s[k], 50);
    rows.push({
      section: 'attention',
      name: `prompt → ${label} p95 (p50 ${p50.toFixed(0)} ms; minus waiting, per round: p50 ${percentile(s.delta[k], 50).toFixed(0)} ms, p95 ${percentile(s.delta[k], 95).toFixed(0)} ms; ${s[k].length}/${ROUNDS} rounds)`,
      value: p95,
      unit: 'ms',
      baseline,
      ratio: p95 / baseline,
      goal: '≤ 1 s',
      met: s.missed[k] === 0 && s[k].length === ROUNDS && p95 <= GOAL_MS,
    });
  }
  return rows;
}
