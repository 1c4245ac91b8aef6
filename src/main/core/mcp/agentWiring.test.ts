/**
 * The MCP wiring each agent preset adds (core/agents/mcpWiring.ts): the
 * token stays out of argv, and the real CLIs accept the configuration.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MCP_HOOKS_PATH } from '../../../shared/mcp';
import { AGENT_HOOK_EVENTS, AGENT_HOOK_EVENT_ALIASES } from '../../../shared/status';
import { mcpWiringFor } from '../agents';
import { seedPluginSdk } from '../../../../test/fixtures/openaiChat/opencodeHarness';

const endpoint = { url: 'http://127.0.0.1:43210/mcp', token: 'app-token-must-not-appear' };

describe('agent MCP wiring', () => {
  it('copilot: --additional-mcp-config naming a Switchboard-owned file (0600) with the env-var header, read-only tools allowed', () => {
    const { args, env } = mcpWiringFor('copilot')(endpoint);
    expect(env).toEqual({});
    expect(args.join(' ')).not.toContain(endpoint.token);
    expect(args[0]).toBe('--additional-mcp-config');
    const file = args[1].replace(/^@/, '');
    expect(args[1]).toBe(`@${file}`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(endpoint.token);
    expect(JSON.parse(text)).toEqual({
      mcpServers: {
        switchboard: { type: 'http', url: endpoint.url, headers: { Authorization: 'Bearer ${SWITCHBOARD_MCP_TOKEN}' }, tools: ['*'] },
      },
    });
    expect(args.slice(2)).toEqual(expect.arrayContaining(['--allow-tool', 'switchboard(whoami)']));
    expect(args.slice(2).filter((a) => a !== '--allow-tool')).not.toContain('switchboard(send_message)');
    // Its status hooks: a plugin folder of Switchboard's own, never the user's ~/.copilot.
    const pluginDir = args[args.indexOf('--plugin-dir') + 1];
    expect(statSync(join(pluginDir, 'hooks/hooks.json')).isFile()).toBe(true);
    expect(pluginDir).not.toContain('.copilot');
  });

  it('qwen: a Switchboard-owned system-defaults settings file (0600) with the env-var header, nothing in argv', () => {
    const { args, env } = mcpWiringFor('qwen')(endpoint);
    expect(args).toEqual([]);
    const file = env.QWEN_CODE_SYSTEM_DEFAULTS_PATH;
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(endpoint.token);
    expect(JSON.parse(text)).toMatchObject({
      mcpServers: { switchboard: { httpUrl: endpoint.url, headers: { Authorization: 'Bearer $SWITCHBOARD_MCP_TOKEN' } } },
      permissions: { allow: expect.arrayContaining(['mcp__switchboard__whoami']) },
    });
    expect(mcpWiringFor('qwen')(endpoint).env.QWEN_CODE_SYSTEM_DEFAULTS_PATH).toBe(file);
  });

  it('qwen: HTTP hooks for the turn and a failed tool, each mapped to a tracked event; not StopFailure (mcpWiring.ts)', () => {
    const settings = JSON.parse(readFileSync(mcpWiringFor('qwen')(endpoint).env.QWEN_CODE_SYSTEM_DEFAULTS_PATH, 'utf8')) as {
      hooks: Record<string, unknown>;
    };
    const events = Object.keys(settings.hooks).sort();
    expect(events).toEqual(['Notification', 'PostToolUse', 'PostToolUseFailure', 'PreToolUse', 'Stop', 'UserPromptSubmit']);
    for (const event of events) expect([...AGENT_HOOK_EVENTS, ...Object.keys(AGENT_HOOK_EVENT_ALIASES)]).toContain(event);
    expect(AGENT_HOOK_EVENT_ALIASES.PostToolUseFailure).toBe('PostToolUse');
    expect(AGENT_HOOK_EVENT_ALIASES.StopFailure).toBeUndefined();
  });

  it('claude: --mcp-config with the env-var header, --settings with read-only tools allowed and HTTP hooks', () => {
    const { args, env } = mcpWiringFor('claude')(endpoint);
    expect(args[0]).toBe('--mcp-config');
    expect(JSON.parse(args[1])).toEqual({
      mcpServers: { switchboard: { type: 'http', url: endpoint.url, headers: { Authorization: 'Bearer ${SWITCHBOARD_MCP_TOKEN}' } } },
    });
    expect(args[2]).toBe('--settings');
    const settings = JSON.parse(args[3]);
    expect(settings.permissions.allow).toContain('mcp__switchboard__whoami');
    expect(settings.permissions.allow).not.toContain('mcp__switchboard__spawn_process');
    expect(settings.hooks.PreToolUse[0]).toEqual({
      matcher: '*',
      hooks: [
        {
          type: 'http',
          url: 'http://127.0.0.1:43210/hooks',
          headers: { Authorization: 'Bearer $SWITCHBOARD_MCP_TOKEN' },
          allowedEnvVars: ['SWITCHBOARD_MCP_TOKEN'],
        },
      ],
    });
    // A failed tool is reported too (read as PostToolUse); StopFailure is not asked for (mcpWiring.ts).
    expect(Object.keys(settings.hooks)).toContain('PostToolUseFailure');
    expect(Object.keys(settings.hooks)).not.toContain('StopFailure');
    expect(settings.hooks.PostToolUseFailure[0].matcher).toBe('*');
    expect(env).toEqual({});
    expect(JSON.stringify(args)).not.toContain(endpoint.token);
  });

  it('codex: -c overrides the real codex CLI accepts as a streamable HTTP server with a bearer env var', () => {
    const { args } = mcpWiringFor('codex')(endpoint);
    expect(JSON.stringify(args)).not.toContain(endpoint.token);
    const home = mkdtempSync(join(tmpdir(), 'codex-home-'));
    try {
      const codex = resolve(__dirname, '../../../../node_modules/.bin/codex');
      const out = execFileSync(codex, [...args, 'mcp', 'list', '--json'], {
        env: { PATH: process.env.PATH ?? '', HOME: home, CODEX_HOME: home },
        encoding: 'utf8',
        timeout: 30_000,
      });
      const servers = JSON.parse(out) as Array<{ name: string; transport: Record<string, unknown> }>;
      expect(servers.find((s) => s.name === 'switchboard')?.transport).toMatchObject({
        type: 'streamable_http',
        url: endpoint.url,
        bearer_token_env_var: 'SWITCHBOARD_MCP_TOKEN',
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('opencode: inline config with {env:…} substitution; presets without an MCP client add nothing', () => {
    const { args, env } = mcpWiringFor('opencode')(endpoint, {});
    expect(args).toEqual([]);
    expect(JSON.parse(env.OPENCODE_CONFIG_CONTENT).mcp.switchboard).toMatchObject({
      type: 'remote',
      url: endpoint.url,
      headers: { Authorization: 'Bearer {env:SWITCHBOARD_MCP_TOKEN}' },
    });
    expect(mcpWiringFor('aider')(endpoint)).toEqual({ args: [], env: {} });
    expect(mcpWiringFor('no-such-preset')(endpoint)).toEqual({ args: [], env: {} });
  });

  it('pi: no MCP client of its own, so two extensions added with -e (on top of the user’s own): the MCP tools and the status, no env', () => {
    const { args, env } = mcpWiringFor('pi')(endpoint);
    expect(args).toEqual([
      '-e',
      expect.stringMatching(/pi-mcp-extension-\w+\.mjs$/),
      '-e',
      expect.stringMatching(/pi-status-extension-\w+\.mjs$/),
    ]);
    expect(readFileSync(args[1], 'utf8')).toContain(endpoint.url);
    expect(readFileSync(args[3], 'utf8')).toContain(MCP_HOOKS_PATH);
    expect(args.join(' ') + readFileSync(args[1], 'utf8')).not.toContain(endpoint.token);
    expect(env).toEqual({});
  });

  it("opencode: the user's OPENCODE_CONFIG_CONTENT is kept and ours merged in; the real opencode resolves both", async () => {
    const theirs = `{
      // the user's own provider, MCP server and plugin
      "provider": { "mine": { "npm": "@ai-sdk/openai-compatible", "options": { "baseURL": "http://127.0.0.1:1/v1" }, "models": { "m": {} } } },
      "mcp": { "mine": { "type": "remote", "url": "http://127.0.0.1:2/mcp", "enabled": false } },
      "model": "mine/m",
    }`;
    const { env } = mcpWiringFor('opencode')(endpoint, { OPENCODE_CONFIG_CONTENT: theirs });
    expect(env.OPENCODE_CONFIG_CONTENT).not.toContain(endpoint.token);
    const home = mkdtempSync(join(tmpdir(), 'opencode-home-'));
    try {
      // Without it opencode installs its plugin SDK from the registry before it loads our plugin: minutes here.
      await seedPluginSdk(join(home, 'config', 'opencode'));
      const opencode = resolve(__dirname, '../../../../node_modules/.bin/opencode');
      const out = execFileSync(opencode, ['debug', 'config'], {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          XDG_CONFIG_HOME: join(home, 'config'),
          XDG_DATA_HOME: join(home, 'data'),
          XDG_CACHE_HOME: join(home, 'cache'),
          XDG_STATE_HOME: join(home, 'state'),
          OPENCODE_DISABLE_AUTOUPDATE: '1',
          OPENCODE_DISABLE_MODELS_FETCH: '1',
          ...env,
        },
        cwd: home,
        encoding: 'utf8',
        timeout: 60_000,
      });
      const resolved = JSON.parse(out) as {
        provider: Record<string, unknown>;
        mcp: Record<string, unknown>;
        model: string;
        plugin: string[];
      };
      // Switchboard's status plugin, a file in its own private directory.
      expect(resolved.plugin).toEqual([expect.stringMatching(/^file:\/\/.*opencode-status-plugin-\w+\.mjs$/)]);
      expect(resolved.model).toBe('mine/m');
      expect(resolved.provider.mine).toMatchObject({ options: { baseURL: 'http://127.0.0.1:1/v1' } });
      expect(resolved.mcp.mine).toMatchObject({ url: 'http://127.0.0.1:2/mcp', enabled: false });
      expect(resolved.mcp.switchboard).toMatchObject({ type: 'remote', url: endpoint.url });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
    // Content opencode itself could not read is left exactly as the user wrote it.
    expect(mcpWiringFor('opencode')(endpoint, { OPENCODE_CONFIG_CONTENT: '{ "provider": ' }).env).toEqual({});
    expect(mcpWiringFor('opencode')(endpoint, { OPENCODE_CONFIG_CONTENT: '[1]' }).env).toEqual({});
  });

  it('gemini: its own GEMINI_CLI_HOME with the user settings plus the server, the user files linked and untouched', () => {
    const userHome = mkdtempSync(join(tmpdir(), 'gemini-user-'));
    try {
      const userSettings =
        '{\n  // mine\n  "model": { "name": "gemini-2.5-pro" },\n  "mcpServers": { "mine": { "command": "my-server" } },\n' +
        '  "hooks": { "AfterAgent": [{ "hooks": [{ "type": "command", "command": "my-notify" }] }] }\n}\n';
      mkdirSync(join(userHome, '.gemini/policies'), { recursive: true });
      writeFileSync(join(userHome, '.gemini/settings.json'), userSettings);
      writeFileSync(join(userHome, '.gemini/oauth_creds.json'), '{}');
      writeFileSync(join(userHome, '.gemini/policies/mine.toml'), '');
      const { args, env } = mcpWiringFor('gemini')(endpoint, { HOME: '/elsewhere', GEMINI_CLI_HOME: userHome });
      expect(args).toEqual([]);
      const home = env.GEMINI_CLI_HOME;
      expect(home).not.toBe(userHome);
      const settingsText = readFileSync(join(home, '.gemini/settings.json'), 'utf8');
      const settings = JSON.parse(settingsText) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
      expect(settings).toEqual({
        model: { name: 'gemini-2.5-pro' },
        mcpServers: {
          mine: { command: 'my-server' },
          switchboard: expect.objectContaining({ httpUrl: endpoint.url, headers: { Authorization: 'Bearer ${SWITCHBOARD_MCP_TOKEN}' } }),
        },
        hooks: expect.any(Object),
        hooksConfig: { notifications: false },
      });
      // Status hooks: the user's kept, ours post the hook input with the run's token from the environment.
      expect(Object.keys(settings.hooks).sort()).toEqual([
        'AfterAgent',
        'AfterTool',
        'BeforeAgent',
        'BeforeModel',
        'BeforeTool',
        'Notification',
      ]);
      // BeforeModel's input is the whole request (the conversation): only its name is posted.
      const modelHook = settings.hooks.BeforeModel[0].hooks[0].command;
      expect(modelHook).toContain(`--data '{"hook_event_name":"BeforeModel"}'`);
      expect(modelHook).not.toContain('@-');
      expect(settings.hooks.AfterAgent.map((h) => h.hooks[0].command)).toEqual(['my-notify', expect.stringContaining('curl')]);
      const ourHook = settings.hooks.BeforeAgent[0].hooks[0].command;
      // The token from printenv inside the hook: Gemini CLI replaces $NAME in its settings, argv included.
      expect(ourHook).toContain('"$(printenv SWITCHBOARD_MCP_TOKEN)"');
      expect(ourHook).not.toMatch(/\$(\w|\{)/);
      expect(ourHook).toContain("'http://127.0.0.1:43210/hooks'");
      expect(settingsText).not.toContain(endpoint.token);
      expect(readlinkSync(join(home, '.gemini/oauth_creds.json'))).toBe(join(userHome, '.gemini/oauth_creds.json'));
      expect(readlinkSync(join(home, '.gemini/trustedFolders.json'))).toBe(join(userHome, '.gemini/trustedFolders.json'));
      expect(lstatSync(join(home, '.gemini/policies')).isDirectory()).toBe(true);
      // Chats and shell history land in the user's folder (made for a first run), not in the run's home that goes at exit.
      for (const folder of ['tmp', 'history']) {
        expect(readlinkSync(join(home, '.gemini', folder))).toBe(join(userHome, '.gemini', folder));
        expect(lstatSync(join(userHome, '.gemini', folder)).isDirectory()).toBe(true);
      }
      expect(readlinkSync(join(home, '.gemini/policies/mine.toml'))).toBe(join(userHome, '.gemini/policies/mine.toml'));
      const policy = readFileSync(join(home, '.gemini/policies/zz-switchboard-read-only.toml'), 'utf8');
      expect(policy).toContain('toolName = "whoami"');
      expect(policy).not.toContain('toolName = "spawn_process"');
      expect(readFileSync(join(userHome, '.gemini/settings.json'), 'utf8')).toBe(userSettings);
    } finally {
      rmSync(userHome, { recursive: true, force: true });
    }
  });
});
