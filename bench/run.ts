/** `npm run bench`: every figure as a ratio or against a baseline measured in the same run. */
import { printTable, type BenchRow } from './report';
import { benchSessions } from './sessions';
import { benchStatus } from './status';
import { benchReadiness } from './readiness';
import { benchProbeCost } from './probeCost';
import { benchMcp } from './mcp';
import { benchMcpTools } from './mcpTools';
import { benchGrid } from './grid';
import { benchContinuity } from './continuity';
import { benchDayload } from './dayload';
import { benchWorktrees } from './worktrees';
import { benchWorktreeApps } from './worktreeApps';
import { benchRemote } from './remote';
import { printAgentScores, scoreAgents } from './agents';
import { benchBlockedLatency } from './blockedLatency';
import { benchUsage } from './usage';
import { benchSandbox } from './sandbox';
import { benchAttention } from './attention';

type Section = { name: string; run: () => Promise<BenchRow[]> };

const sections: Section[] = [
  { name: 'sessions', run: benchSessions },
  { name: 'status', run: benchStatus },
  { name: 'readiness', run: benchReadiness },
  { name: 'probe-cost', run: benchProbeCost },
  { name: 'mcp', run: benchMcp },
  { name: 'mcp-tools', run: benchMcpTools },
  { name: 'grid', run: benchGrid },
  { name: 'continuity', run: benchContinuity },
  { name: 'dayload', run: benchDayload },
  { name: 'worktrees', run: benchWorktrees },
  { name: 'worktree-apps', run: benchWorktreeApps },
  { name: 'remote', run: benchRemote },
  { name: 'agents', run: benchBlockedLatency },
  { name: 'usage', run: benchUsage },
  { name: 'sandbox', run: benchSandbox },
  { name: 'attention', run: benchAttention },
];

async function main(): Promise<void> {
  const only = process.argv[2];
  const rows: BenchRow[] = [];
  for (const section of sections) {
    if (only && section.name !== only) continue;
    process.stderr.write(`bench: ${section.name}…\n`);
    rows.push(...(await section.run()));
  }
  printTable(rows);
  if (!only || only === 'agents') {
    process.stderr.write('bench: agent status scores…\n');
    console.log('\nAgent status per CLI (recordings replayed; stuck delay from recordings, else the stall probe):');
    printAgentScores(await scoreAgents());
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
