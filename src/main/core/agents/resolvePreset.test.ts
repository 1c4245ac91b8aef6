import { describe, expect, it } from 'vitest';
import { AgentConfigSchema, AgentsSectionSchema } from '../../../shared/agentConfig';
import { DEFAULT_SUBMIT_AFTER_ECHO_MS } from '../sessions';
import { STUCK_THRESHOLD_MS } from '../status';
import { AGENT_TERM } from './agentPreset';
import { BUILTIN_PRESETS, PRESET_IDS } from './presets';
import { resolveAgentLaunch, resolvePreset } from './resolvePreset';

describe('presets', () => {
  it('cover the six agents of docs/agent-status.md plus generic, each with its own rules and the 15 s stuck default', () => {
    expect(PRESET_IDS).toEqual(['claude', 'codex', 'gemini', 'opencode', 'qwen', 'pi', 'copilot', 'aider', 'cursor-agent', 'generic']);
    expect([...BUILTIN_PRESETS.keys(), 'generic']).toEqual(PRESET_IDS);
    for (const p of BUILTIN_PRESETS.values()) {
      expect(p.rules.agent).toBe(p.id);
      expect(p.env.TERM).toBe(AGENT_TERM);
      expect(p.thresholds.stuckThresholdMs).toBe(STUCK_THRESHOLD_MS);
      const wiring = p.mcpWiring({ url: 'http://127.0.0.1:1/mcp', token: 't' });
      expect(Array.isArray(wiring.args) && typeof wiring.env === 'object').toBe(true);
    }
    expect(resolvePreset('aider').mcpWiring({ url: 'http://127.0.0.1:1/mcp', token: 't' })).toEqual({ args: [], env: {} });
    expect(resolvePreset('claude').hasHooks).toBe(true);
  });

  it('carry their submit pause: short for CLIs that submit an Enter right after the echo, the safe default for paste-aware and unmeasured ones', () => {
    const pause = (id: string) => resolvePreset(id).submitAfterEchoMs;
    expect([pause('claude'), pause('codex')]).toEqual([120, 120]);
    expect([pause('gemini'), pause('qwen')]).toEqual([500, 500]);
    expect([pause('opencode'), pause('/usr/local/bin/my-agent')]).toEqual([DEFAULT_SUBMIT_AFTER_ECHO_MS, DEFAULT_SUBMIT_AFTER_ECHO_MS]);
  });

  it('resolvePreset: by id, by a command path whose basename is a preset program, else generic', () => {
    expect(resolvePreset('codex').displayName).toBe('Codex CLI');
    expect(resolvePreset('/opt/tools/bin/claude').id).toBe('claude');
    const unknown = resolvePreset('/usr/local/bin/my-agent');
    expect([unknown.id, unknown.isGeneric, unknown.command, unknown.displayName, unknown.rules.agent]).toEqual([
      'generic',
      true,
      '/usr/local/bin/my-agent',
      'my-agent',
      'generic',
    ]);
  });
});

describe('resolveAgentLaunch', () => {
  it('appends config args, merges env with TERM forced, keeps the preset rules with a command override', () => {
    const launch = resolveAgentLaunch(
      AgentConfigSchema.parse({
        preset: 'codex',
        args: ['--model', 'gpt-5'],
        command: '/opt/codex-wrapper.sh',
        env: { FOO: 'bar', TERM: 'dumb' },
        stuckThresholdMs: 30_000,
        cwd: 'services/api',
      }),
    );
    expect(launch.argv).toEqual(['/opt/codex-wrapper.sh', '--model', 'gpt-5']);
    expect(launch.env).toEqual({ FOO: 'bar', TERM: AGENT_TERM });
    expect(launch.preset.rules.agent).toBe('codex');
    expect(launch.statusOverrides).toEqual({ stuckThresholdMs: 30_000 });
    expect([launch.cwd, launch.autoStart]).toEqual(['services/api', false]);
  });

  it('appends the MCP wiring when an endpoint is given, with TERM still forced', () => {
    const mcp = { url: 'http://127.0.0.1:7777/mcp', token: 'tok' };
    const launch = resolveAgentLaunch(AgentConfigSchema.parse({ preset: 'claude', args: ['--verbose'] }), mcp);
    const wiring = launch.preset.mcpWiring(mcp);
    expect(launch.argv).toEqual(['claude', '--verbose', ...wiring.args]);
    expect(launch.env.TERM).toBe(AGENT_TERM);
  });

  it('a command without a preset gets the generic preset', () => {
    const launch = resolveAgentLaunch(AgentConfigSchema.parse({ command: 'my-agent', args: ['--fast'] }));
    expect(launch.preset.isGeneric).toBe(true);
    expect(launch.argv).toEqual(['my-agent', '--fast']);
  });
});

describe('AgentConfigSchema', () => {
  it.each([
    [{ preset: 'claude' }, true],
    [{ preset: 'codex', args: ['--model', 'gpt-5'], autoStart: true }, true],
    [{ command: './my-agent.sh' }, true],
    [{}, false], // neither preset nor command
    [{ preset: 'claude', stuckThreshold: 5 }, false], // unknown field
    [{ preset: 'claude', stuckThresholdMs: 10 }, false], // below the minimum
    [{ preset: 'claude', stuckThresholdMs: 1.5e3 + 0.5 }, false], // not whole ms
    [{ preset: 'claude', env: { A: 1 } }, false],
  ])('%j valid: %s', (input, ok) => {
    expect(AgentConfigSchema.safeParse(input).success).toBe(ok);
  });

  it('errors name the field', () => {
    const r = AgentsSectionSchema.safeParse({ claude: { preset: 'claude', stuckThresholdMs: 10 } });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].path).toEqual(['claude', 'stuckThresholdMs']);
    expect(r.error!.issues[0].message).toMatch(/at least 1000/);
  });
});
