/**
 * MCP wiring per agent CLI (docs/mcp.md "Agent presets wire the endpoint into the agent CLI's own MCP
 * configuration"): the extra argv and env that make a spawned agent connect to Switchboard's MCP
 * endpoint with no set-up.
 *
 * The token never appears in argv (other local users can read command lines) and is not
 * `endpoint.token`: each run of an entry gets its OWN token in SWITCHBOARD_MCP_TOKEN (envForRun),
 * and every CLI below reads it from there, so calls are attributed to the entry that made them.
 */
import { MCP_HOOKS_PATH, MCP_SERVER_NAME, MCP_STATUS_LINE_PATH, MCP_TOKEN_ENV, READ_ONLY_TOOLS } from '../../../shared/mcp';
import { CLAUDE_HOOK_EVENTS } from '../../../shared/status';
import type { McpEndpoint, McpWiring, RunEnv } from './agentPreset';
import { GEMINI_HOME_ENV, createGeminiHome, userGeminiHome } from './geminiSettings';
import { copilotStatusPlugin } from './copilotStatusPlugin';
import { ownedSettingsFile } from './ownedSettingsFile';
import { claudeStatusLine, usersClaudeStatusLine } from './claudeStatusLineCommand';
import { OPENCODE_CONFIG_CONTENT_ENV, mergedOpencodeConfig } from './opencodeConfig';
import { opencodeStatusPlugin } from './opencodeStatusPlugin';
import { piMcpExtension } from './piMcpExtension';
import { piStatusExtension } from './piStatusExtension';

const NONE = (): McpWiring => ({ args: [], env: {} });

/**
 * Claude Code: `--mcp-config` with an http server whose header expands ${SWITCHBOARD_MCP_TOKEN}
 * (Claude Code expands variables in command-line MCP configs), and `--settings` with the
 * read-only Switchboard tools pre-approved, HTTP hooks that report prompt submit, tool use,
 * notifications and stop to the status tracker, and a status line that reports the usage windows
 * (claudeStatusLineCommand.ts; the user's own status line still runs). All add to the user's configuration.
 */
function claudeWiring(endpoint: McpEndpoint, runEnv: RunEnv = process.env, cwd?: string): McpWiring {
  const mcpConfig = {
    mcpServers: { [MCP_SERVER_NAME]: { type: 'http', url: endpoint.url, headers: { Authorization: `Bearer \${${MCP_TOKEN_ENV}}` } } },
  };
  const settings = {
    permissions: { allow: READ_ONLY_TOOLS.map((tool) => `mcp__${MCP_SERVER_NAME}__${tool}`) },
    hooks: claudeStatusHooks(endpoint),
    statusLine: claudeStatusLine(new URL(MCP_STATUS_LINE_PATH, endpoint.url).toString(), usersClaudeStatusLine(runEnv, cwd)),
  };
  return { args: ['--mcp-config', JSON.stringify(mcpConfig), '--settings', JSON.stringify(settings)], env: {} };
}

/**
 * Claude Code reports a tool that failed with PostToolUseFailure, not PostToolUse (a `curl` that
 * exits 7): without it the tool reads as running until Stop. The receiver reads it as PostToolUse
 * (shared/status.ts). Not StopFailure: read as Stop (idle), it would come between a limit's retry
 * row and its final error line and drop the reset time the retry row showed.
 */
const CLAUDE_FAILURE_HOOKS = ['PostToolUseFailure'] as const;

/** Claude Code's HTTP hooks that report the turn to Switchboard's hook receiver at `endpoint` (its recorder installs the same). */
export function claudeStatusHooks(endpoint: McpEndpoint): Record<string, unknown> {
  return Object.fromEntries(
    [...CLAUDE_HOOK_EVENTS, ...CLAUDE_FAILURE_HOOKS].map((event) => [
      event,
      [{ ...(/ToolUse/u.test(event) ? { matcher: '*' } : {}), hooks: [httpHook(endpoint)] }],
    ]),
  );
}

/**
 * An HTTP hook (Claude Code's format, which Qwen Code shares) that posts the hook's input to
 * Switchboard's hook receiver with the run's own token, expanded by the CLI from its environment.
 */
function httpHook(endpoint: McpEndpoint): Record<string, unknown> {
  return {
    type: 'http',
    url: new URL(MCP_HOOKS_PATH, endpoint.url).toString(),
    headers: { Authorization: `Bearer $${MCP_TOKEN_ENV}` },
    allowedEnvVars: [MCP_TOKEN_ENV],
  };
}

/** Codex: `-c mcp_servers.switchboard.*` overrides (streamable HTTP); it reads the bearer token from the env var. */
function codexWiring(endpoint: McpEndpoint): McpWiring {
  const key = `mcp_servers.${MCP_SERVER_NAME}`;
  return {
    args: ['-c', `${key}.url=${JSON.stringify(endpoint.url)}`, '-c', `${key}.bearer_token_env_var=${JSON.stringify(MCP_TOKEN_ENV)}`],
    env: {},
  };
}

/** Gemini CLI: a Switchboard-owned GEMINI_CLI_HOME mirroring the user's (see geminiSettings.ts). */
function geminiWiring(endpoint: McpEndpoint, runEnv: RunEnv = process.env): McpWiring {
  return { args: [], env: { [GEMINI_HOME_ENV]: createGeminiHome(endpoint.url, userGeminiHome(runEnv)) } };
}

/**
 * opencode: inline config in OPENCODE_CONFIG_CONTENT (`{env:…}` is its substitution) with the
 * MCP server and Switchboard's status plugin (opencodeStatusPlugin.ts), the
 * highest-precedence layer it merges over its config files. A user who set that variable keeps
 * it: Switchboard's additions are merged into theirs (see opencodeConfig.ts).
 */
function opencodeWiring(endpoint: McpEndpoint, runEnv: RunEnv = process.env): McpWiring {
  const ours = {
    mcp: {
      [MCP_SERVER_NAME]: { type: 'remote', url: endpoint.url, enabled: true, headers: { Authorization: `Bearer {env:${MCP_TOKEN_ENV}}` } },
    },
    plugin: [opencodeStatusPlugin(endpoint)],
  };
  const content = mergedOpencodeConfig(runEnv[OPENCODE_CONFIG_CONTENT_ENV], ours);
  return { args: [], env: content === undefined ? {} : { [OPENCODE_CONFIG_CONTENT_ENV]: content } };
}

/**
 * Qwen Code: its `--mcp-config` flag does not expand env vars (the token would land in argv), but
 * its settings files do (`$VAR`). So the server goes into a Switchboard-owned settings file passed
 * as QWEN_CODE_SYSTEM_DEFAULTS_PATH, the lowest-precedence scope: the user's own settings still
 * win, and `mcpServers` / `permissions.allow` / `hooks` merge with theirs. The read-only tools are
 * pre-approved like Claude Code's, and Qwen's HTTP hooks (Claude Code's events and format) report
 * the turn to the status tracker. Its `idle_prompt` notification follows every turn in 0.24
 * (not a long idle as in Claude Code), so only permission notifications are asked for.
 */
function qwenWiring(endpoint: McpEndpoint): McpWiring {
  const settings = {
    mcpServers: { [MCP_SERVER_NAME]: { httpUrl: endpoint.url, headers: { Authorization: `Bearer $${MCP_TOKEN_ENV}` } } },
    permissions: { allow: READ_ONLY_TOOLS.map((tool) => `mcp__${MCP_SERVER_NAME}__${tool}`) },
    hooks: qwenStatusHooks(endpoint),
  };
  return { args: [], env: { QWEN_CODE_SYSTEM_DEFAULTS_PATH: ownedSettingsFile('qwen-settings', JSON.stringify(settings, null, 2)) } };
}

/**
 * Qwen Code's HTTP hooks that report the turn to Switchboard's hook receiver at `endpoint`. Not
 * StopFailure (an API error ended the turn): read as Stop (idle) it arrived before the error item
 * was drawn and held again when the next prompt replaced that item, idle for a moment between a
 * turn and its block; the error item on screen says it all.
 */
export function qwenStatusHooks(endpoint: McpEndpoint): Record<string, unknown> {
  const hook = (matcher?: string) => [{ ...(matcher ? { matcher } : {}), hooks: [{ ...httpHook(endpoint), timeout: HOOK_TIMEOUT_S }] }];
  return {
    UserPromptSubmit: hook(),
    PreToolUse: hook('*'),
    PostToolUse: hook('*'),
    PostToolUseFailure: hook('*'),
    Notification: hook(QWEN_PERMISSION_NOTIFICATION),
    Stop: hook(),
  };
}

/**
 * pi: it has no MCP client by design ("No MCP" in its README: MCP is for extensions to add), so
 * both come as extensions loaded with `-e`, which add to the user's own: Switchboard's tools
 * (piMcpExtension.ts) and its turn reported to the status tracker (piStatusExtension.ts).
 */
function piWiring(endpoint: McpEndpoint): McpWiring {
  return { args: ['-e', piMcpExtension(endpoint), '-e', piStatusExtension(endpoint)], env: {} };
}

/**
 * GitHub Copilot CLI: `--additional-mcp-config @<file>` ("augments config from
 * ~/.copilot/mcp-config.json for this session", `copilot help`) naming a Switchboard-owned file;
 * Copilot expands `${VAR}` in its headers, so the file holds no secret and the run's token comes
 * from its environment. The read-only tools run without asking (`--allow-tool switchboard(<tool>)`,
 * its permission pattern for one MCP tool); every other Switchboard tool asks as any MCP tool does.
 * Its status hooks come as a plugin in a Switchboard-owned folder (copilotStatusPlugin.ts).
 */
function copilotWiring(endpoint: McpEndpoint): McpWiring {
  const config = {
    mcpServers: {
      [MCP_SERVER_NAME]: { type: 'http', url: endpoint.url, headers: { Authorization: `Bearer \${${MCP_TOKEN_ENV}}` }, tools: ['*'] },
    },
  };
  const file = ownedSettingsFile('copilot-mcp-config', JSON.stringify(config, null, 2));
  const allowed = READ_ONLY_TOOLS.flatMap((tool) => ['--allow-tool', `${MCP_SERVER_NAME}(${tool})`]);
  return { args: ['--additional-mcp-config', `@${file}`, ...allowed, '--plugin-dir', copilotStatusPlugin(endpoint)], env: {} };
}

/** Qwen Code waits for its hooks: a Switchboard that does not answer must not hold a turn for its 600 s default. */
const HOOK_TIMEOUT_S = 5;
const QWEN_PERMISSION_NOTIFICATION = 'permission_prompt';

const MCP_WIRING: Readonly<Record<string, (endpoint: McpEndpoint, runEnv?: RunEnv, cwd?: string) => McpWiring>> = {
  claude: claudeWiring,
  codex: codexWiring,
  gemini: geminiWiring,
  opencode: opencodeWiring,
  qwen: qwenWiring,
  pi: piWiring,
  copilot: copilotWiring,
  aider: NONE, // aider has no MCP client
  // Cursor Agent reads MCP servers only from settings files in the project or home directory;
  // writing those would change the user's files, so it gets the env (URL + token) only.
  'cursor-agent': NONE,
  generic: NONE,
};

export function mcpWiringFor(presetId: string): (endpoint: McpEndpoint, runEnv?: RunEnv, cwd?: string) => McpWiring {
  return MCP_WIRING[presetId] ?? NONE;
}
