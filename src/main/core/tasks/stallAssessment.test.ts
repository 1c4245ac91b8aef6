import { describe, expect, it } from 'vitest';
import { CLAUDE_LONG_RUNNING_TOOLS } from './claudeRunner';
import { PARALLEL_TOOLS_MAX_WINDOWS, TOOL_TIMEOUT_MARGIN_MS, assessSilence, type SilenceContext } from './stallAssessment';
import type { InFlightTool } from './taskState';

const NOW = 10_000_000;
const IDLE_MS = 180_000;

function tool(name: string, input: Record<string, unknown>, runningMs: number, extra: Partial<InFlightTool> = {}): InFlightTool {
  return {
    id: `t_${name}_${runningMs}`,
    name,
    input,
    summary: String(input.command ?? input.description ?? ''),
    startedAt: NOW - runningMs,
    ...extra,
  };
}

function ctx(overrides: Partial<SilenceContext>): SilenceContext {
  return {
    trigger: 'idle',
    now: NOW,
    windowMs: IDLE_MS,
    silentForMs: IDLE_MS,
    phase: 'tool_executing',
    tools: [],
    extensions: new Map(),
    longRunningTools: CLAUDE_LONG_RUNNING_TOOLS,
    activity: 'doing something',
    ...overrides,
  };
}

describe('assessSilence', () => {
  const cases: Array<{
    name: string;
    context: Partial<SilenceContext>;
    verdict: 'extend' | 'stall';
    rule: string;
    until?: number;
    reason?: RegExp;
  }> = [
    {
      name: 'Bash within its own timeout earns time until that timeout plus the margin',
      context: { tools: [tool('Bash', { command: 'npm test', timeout: 600_000 }, 200_000)] },
      verdict: 'extend',
      rule: 'bash-own-timeout',
      until: NOW - 200_000 + 600_000 + TOOL_TIMEOUT_MARGIN_MS,
      reason: /Bash \(npm test\) has run 200 s of its own 600 s timeout/,
    },
    {
      name: "Bash without a timeout gets Claude Code's 2-minute default",
      context: { tools: [tool('Bash', { command: 'sleep 4' }, 2_000)], windowMs: 2_000, silentForMs: 2_000 },
      verdict: 'extend',
      rule: 'bash-own-timeout',
      until: NOW - 2_000 + 120_000 + TOOL_TIMEOUT_MARGIN_MS,
    },
    {
      name: "a timeout above the tool's ceiling is clamped to 10 minutes",
      context: { tools: [tool('Bash', { command: 'make', timeout: 3_600_000 }, 0)] },
      verdict: 'extend',
      rule: 'bash-own-timeout',
      until: NOW + 600_000 + TOOL_TIMEOUT_MARGIN_MS,
    },
    {
      name: 'Bash past its own timeout and the margin is a stall (agents ignore their own timeouts)',
      context: { tools: [tool('Bash', { command: 'sleep 900', timeout: 60_000 }, 95_000)] },
      verdict: 'stall',
      rule: 'silent-tool',
      reason: /Bash \(sleep 900\) has run 95 s, past its own 60 s timeout/,
    },
    {
      name: 'a background Bash returned at once: its silence earns nothing',
      context: { tools: [tool('Bash', { command: 'server', run_in_background: true }, 1_000)] },
      verdict: 'stall',
      rule: 'silent-tool',
      reason: /Bash is not known to run long/,
    },
    {
      name: 'a subagent earns a window',
      context: { tools: [tool('Task', { description: 'review' }, 300_000)] },
      verdict: 'extend',
      rule: 'subagent',
      until: NOW + IDLE_MS,
      reason: /subagent run .*extension 1 of 3/,
    },
    {
      name: 'a subagent past its windows is a stall',
      context: { tools: [tool('Agent', { description: 'review' }, 900_000)], extensions: new Map([['subagent', 3]]) },
      verdict: 'stall',
      rule: 'silent-tool',
      reason: /already had 3 extensions/,
    },
    {
      name: 'several tools in parallel earn a window',
      context: { tools: [tool('Read', { file_path: '/a' }, 1_000), tool('Grep', { pattern: 'x' }, 1_000)] },
      verdict: 'extend',
      rule: 'parallel-tools',
      until: NOW + IDLE_MS,
    },
    {
      name: 'parallel tools past their windows are a stall',
      context: {
        tools: [tool('Read', {}, 1_000), tool('Grep', {}, 1_000)],
        extensions: new Map([['parallel-tools', PARALLEL_TOOLS_MAX_WINDOWS]]),
      },
      verdict: 'stall',
      rule: 'silent-tool',
    },
    {
      name: 'a tool not known to run long is a stall',
      context: { tools: [tool('mcp__db__query', {}, 180_000)], activity: 'running mcp__db__query for 180 s' },
      verdict: 'stall',
      rule: 'silent-tool',
      reason: /^no output for 180 s while running mcp__db__query for 180 s; mcp__db__query is not known to run long$/,
    },
    {
      name: 'a stream silent mid-message is a stall',
      context: { phase: 'generating', lastActivityKind: 'text', activity: 'generating; last activity 180 s ago: writing "Let me"' },
      verdict: 'stall',
      rule: 'silent-stream',
      reason: /the model stream went silent mid-message/,
    },
    {
      name: 'a model that never answers is a stall',
      context: { phase: 'generating', lastActivityKind: 'requesting' },
      verdict: 'stall',
      rule: 'silent-stream',
      reason: /the model never answered/,
    },
    {
      name: 'an agent that never started is a stall',
      context: { phase: 'starting' },
      verdict: 'stall',
      rule: 'silent-start',
    },
    {
      name: 'a turn that trickles without finishing is a stall',
      context: { trigger: 'turn', windowMs: 600_000, silentForMs: 600_000, phase: 'generating' },
      verdict: 'stall',
      rule: 'unfinished-turn',
      reason: /^no complete assistant message for 600 s .*kept going without finishing a message/,
    },
    {
      name: 'a long Bash also covers the turn deadline',
      context: { trigger: 'turn', windowMs: 600_000, tools: [tool('Bash', { command: 'make', timeout: 600_000 }, 590_000)] },
      verdict: 'extend',
      rule: 'bash-own-timeout',
      until: NOW + 10_000 + TOOL_TIMEOUT_MARGIN_MS,
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const a = assessSilence(ctx(c.context));
      expect(a.verdict).toBe(c.verdict);
      expect(a.rule).toBe(c.rule);
      if (c.until !== undefined) expect(a.verdict === 'extend' && a.until).toBe(c.until);
      if (c.reason) expect(a.reason).toMatch(c.reason);
    });
  }

  it('the own-timeout rule comes first: the latest deadline of the tools in flight wins', () => {
    const a = assessSilence(
      ctx({ tools: [tool('Bash', { command: 'a', timeout: 60_000 }, 10_000), tool('Bash', { command: 'b', timeout: 300_000 }, 10_000)] }),
    );
    expect(a).toMatchObject({ verdict: 'extend', rule: 'bash-own-timeout', until: NOW - 10_000 + 300_000 + TOOL_TIMEOUT_MARGIN_MS });
  });
});
