/**
 * The Gemini CLI home through which a spawned Gemini CLI finds Switchboard's MCP endpoint.
 *
 * Gemini CLI reads MCP servers only from settings files. The user's own (`~/.gemini/settings.json`,
 * the project's `.gemini/settings.json`) are never written. The system-settings layers
 * (`GEMINI_CLI_SYSTEM_DEFAULTS_PATH`) would be ideal, but Gemini CLI 0.61 skips those files unless
 * the file and every parent directory are owned by root and not group/world-writable, which no
 * per-user app can provide. So Switchboard gives the run its own `GEMINI_CLI_HOME`: a private
 * directory whose `.gemini/settings.json` is the user's settings plus the `switchboard` server,
 * whose `policies/` holds the user's policy files plus one allowing Switchboard's read-only tools,
 * and whose other `.gemini` entries are symlinks to the user's real ones (credentials, trusted folders,
 * history, extensions, commands), so what Gemini CLI saves still lands in the user's own folder.
 *
 * The settings hold no secret: the bearer token is `${SWITCHBOARD_MCP_TOKEN}`, which Gemini CLI
 * expands from the run's environment, so every run is its own caller.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { MCP_HOOKS_PATH, MCP_SERVER_NAME, MCP_TOKEN_ENV, READ_ONLY_TOOLS } from '../../../shared/mcp';
import { HOOK_POST_TIMEOUT_MS, HOOK_STDIN_BODY, hookPostCommand } from './hookPostCommand';
import { isPlainObject, parseJsonObject } from './jsonc';

/** The env var that moves Gemini CLI's user configuration (`<dir>/.gemini`). */
export const GEMINI_HOME_ENV = 'GEMINI_CLI_HOME';

/**
 * Files Gemini CLI keeps in `~/.gemini`, linked even before they exist so that a first sign-in or
 * trust decision made in a Switchboard pane is saved in the user's folder. (Missing folders are not
 * linked: Gemini CLI cannot mkdir through a dangling link.)
 */
const KNOWN_GEMINI_FILES = [
  'oauth_creds.json',
  'google_accounts.json',
  'installation_id',
  'user_id',
  'trustedFolders.json',
  'projects.json',
  'state.json',
];

/** `user` plus Switchboard's server (streamable HTTP) and its status hooks. */
function withSwitchboardServer(user: Record<string, unknown>, url: string): Record<string, unknown> {
  return {
    ...user,
    hooks: withStatusHooks(user.hooks, new URL(MCP_HOOKS_PATH, url).toString()),
    // Our hooks are not the user's business: no "Executing Hook" row for them, unless the user asked.
    hooksConfig: { notifications: false, ...(isPlainObject(user.hooksConfig) ? user.hooksConfig : {}) },
    mcpServers: {
      ...(user.mcpServers as Record<string, unknown> | undefined),
      [MCP_SERVER_NAME]: {
        httpUrl: url,
        headers: { Authorization: `Bearer \${${MCP_TOKEN_ENV}}` },
        description: 'Switchboard: the processes, dev servers and agents of this project',
      },
    },
  };
}

/**
 * Gemini CLI 0.61 runs only command hooks (its hooks reference: `type` "Currently only `command`
 * is supported"), with the hook's input JSON on stdin, and waits for them. Each posts that JSON to
 * Switchboard's hook receiver (hookPostCommand.ts; stdout must be JSON or empty).
 */
const GEMINI_STATUS_HOOK_EVENTS = ['BeforeAgent', 'AfterAgent', 'BeforeModel', 'BeforeTool', 'AfterTool', 'Notification'] as const;

/**
 * BeforeModel fires before every attempt of a model request, retries included (the only structured
 * sign of a retry: docs/agent-status.md). Its input holds the whole request — the conversation —
 * so that hook posts its name alone instead of the input.
 */
const NAME_ONLY_EVENTS: ReadonlySet<string> = new Set(['BeforeModel']);

export function withStatusHooks(userHooks: unknown, hooksUrl: string): Record<string, unknown> {
  const hooks: Record<string, unknown> = isPlainObject(userHooks) ? { ...userHooks } : {};
  const post = (data: string) => hookPostCommand(hooksUrl, data);
  for (const event of GEMINI_STATUS_HOOK_EVENTS) {
    const command = NAME_ONLY_EVENTS.has(event) ? post(`--data '{"hook_event_name":"${event}"}'`) : post(HOOK_STDIN_BODY);
    const ours = {
      ...(event.endsWith('Tool') ? { matcher: '.*' } : {}),
      hooks: [{ type: 'command', name: 'switchboard-status', command, timeout: HOOK_POST_TIMEOUT_MS }],
    };
    const theirs = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
    hooks[event] = [...theirs, ours];
  }
  return hooks;
}

/** A policy file (Gemini CLI's policy engine, user tier) that lets the read-only Switchboard tools run without asking. */
function readOnlyToolsPolicy(): string {
  const rule = (tool: string) =>
    `[[rule]]\nmcpName = "${MCP_SERVER_NAME}"\ntoolName = "${tool}"\ndecision = "allow"\npriority = ${READ_ONLY_POLICY_PRIORITY}\n`;
  return `# Written by Switchboard for this run: its read-only MCP tools need no confirmation.\n\n${READ_ONLY_TOOLS.map(rule).join('\n')}`;
}

/** Low within the user tier, so any rule of the user's own about these tools wins. */
const READ_ONLY_POLICY_PRIORITY = 10;

/** The Gemini CLI home the user would get without Switchboard, from the run's environment. */
/**
 * Folders Gemini CLI 0.61 writes a project's chats, checkpoints and shell history into (`tmp/`,
 * `history/`): made in the user's folder first, so they are linked rather than created inside this
 * run's home, which goes when Switchboard exits and would take the user's chats with it.
 */
const USER_GEMINI_FOLDERS = ['tmp', 'history'];

export function userGeminiHome(env: Readonly<Record<string, string | undefined>>): string {
  return env[GEMINI_HOME_ENV] || env.HOME || homedir();
}

let homesRoot: string | undefined;
let homeCount = 0;

/**
 * Creates a Switchboard-owned Gemini CLI home for one run (in a private directory, mkdtemp 0700,
 * removed when Switchboard exits) and returns its path for GEMINI_CLI_HOME.
 */
export function createGeminiHome(url: string, userHome: string): string {
  homesRoot ??= createHomesRoot();
  const home = path.join(homesRoot, `run-${++homeCount}`);
  const dotGemini = path.join(home, '.gemini');
  mkdirSync(dotGemini, { recursive: true, mode: 0o700 });
  const userDotGemini = path.join(userHome, '.gemini');
  const settings = withSwitchboardServer(readUserSettings(path.join(userDotGemini, 'settings.json')), url);
  writeFileSync(path.join(dotGemini, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  for (const folder of USER_GEMINI_FOLDERS) mkdirSync(path.join(userDotGemini, folder), { recursive: true, mode: 0o700 });
  const present = readdirSync(userDotGemini);
  for (const name of new Set([...present, ...KNOWN_GEMINI_FILES])) {
    if (name === 'settings.json' || name === POLICIES) continue;
    symlinkSync(path.join(userDotGemini, name), path.join(dotGemini, name));
  }
  writePolicies(path.join(userDotGemini, POLICIES), path.join(dotGemini, POLICIES));
  return home;
}

const POLICIES = 'policies';

/** The user's policy files (linked) plus Switchboard's; Gemini CLI reads every `.toml` in the folder. */
function writePolicies(userPolicies: string, policies: string): void {
  mkdirSync(policies, { mode: 0o700 });
  const userFiles = existsSync(userPolicies) ? readdirSync(userPolicies) : [];
  for (const name of userFiles) symlinkSync(path.join(userPolicies, name), path.join(policies, name));
  writeFileSync(path.join(policies, SWITCHBOARD_POLICY_FILE), readOnlyToolsPolicy(), { mode: 0o600 });
}

const SWITCHBOARD_POLICY_FILE = 'zz-switchboard-read-only.toml';

/**
 * The user's settings as an object; {} when missing. A file Gemini CLI itself could not read
 * (it allows comments) is not guessed at: the run then sees only Switchboard's server.
 */
function readUserSettings(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {};
  return parseJsonObject(readFileSync(file, 'utf8')) ?? {};
}

function createHomesRoot(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-gemini-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
