/**
 * Where each CLI keeps the records its usage is read from, as data: the file kind, its format's
 * accumulator, and which session rule finds the file — the preset's own (the session id comes
 * from the agent's session decoration) or, for a CLI Switchboard does not resume, the source's
 * own `discover` rule. A preset without a row has no usage (docs/usage.md).
 */
import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AgentPreset } from '../agents';
import { ClaudeTranscriptAccumulator } from './claudeTranscript';
import { CodexRolloutAccumulator } from './codexRollout';
import { GeminiChatAccumulator } from './geminiChat';
import type { UsageAccumulator } from './usageAccumulator';
import { PiSessionAccumulator } from './piSession';
import { QwenChatAccumulator } from './qwenChat';
import { OpencodeStepAccumulator } from './opencodeSteps';
import { CopilotEventsAccumulator } from './copilotEvents';
import type { SessionFileRule } from './discoveredSession';

export interface UsageSource {
  /** Shown as the record's `source`. */
  label: string;
  accumulator(): UsageAccumulator;
  /** The file of session `sessionId` if it exists yet. */
  locate?(preset: AgentPreset, sessionId: string, env: Readonly<Record<string, string>>): string | undefined;
  /** How the session id is found when the preset's resume rules do not know it. */
  discover?: SessionFileRule;
  /** Records come from the agent's own plugin, posted to the hook receiver, instead of a file. */
  posted?: true;
  /** The CLI names its session file in its hooks (`transcript_path`): that path, when it matches, is the session's id. */
  hookTranscript?: RegExp;
}

const SESSION_PLACEHOLDER = '{session}';

/**
 * pi 0.73.1: `<agent dir>/sessions/--<cwd>--/<ISO time>_<session id>.jsonl` (`getDefaultSessionDir`,
 * `SessionManager.newSession`, dist/core/session-manager.js), agent dir `$PI_CODING_AGENT_DIR` or
 * `~/.pi/agent` (dist/config.js); the session id is a UUID (v7); the header records the cwd.
 */
const PI_SESSION_FILES: SessionFileRule = {
  pattern: /_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/,
  homeEnv: 'PI_CODING_AGENT_DIR',
  defaultHome: '~/.pi/agent',
  dir: 'sessions',
};

/**
 * Qwen Code 0.24.4: `<QWEN_HOME or ~/.qwen>/projects/<sanitized cwd>/chats/<session id>.jsonl`
 * (`Storage.getGlobalQwenDir`, `getProjectDir`; `ChatRecordingService.ensureConversationFile`);
 * every record carries the cwd.
 */
const QWEN_CHAT_FILES: SessionFileRule = {
  pattern: /\/chats\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/,
  homeEnv: 'QWEN_HOME',
  defaultHome: '~/.qwen',
  dir: 'projects',
};
/**
 * Copilot CLI 1.0.102: `<COPILOT_HOME or ~/.copilot>/session-state/<session id>/events.jsonl`; its
 * `session.start` event records the cwd (`data.context.cwd`).
 */
const COPILOT_EVENT_FILES: SessionFileRule = {
  pattern: /\/session-state\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/events\.jsonl$/,
  homeEnv: 'COPILOT_HOME',
  defaultHome: '~/.copilot',
  dir: 'session-state',
};
/**
 * Gemini CLI 0.61.0: `<GEMINI_CLI_HOME or ~>/.gemini/tmp/<project>/chats/session-<time>-<first 8 of
 * the session id>.jsonl` (`ChatRecordingService.initialize`); its hooks name it as `transcript_path`
 * (`createBaseInput`). A sub-agent's file is `chats/<parent session id>/<its id>.jsonl`, never a
 * hook's `transcript_path`.
 */
const GEMINI_CHAT_FILE = /\/chats\/session-[^/]*\.jsonl$/;
/** Dated folders (YYYY/MM/DD) plus slack. */
const MAX_DEPTH = 5;

export const USAGE_SOURCES: Readonly<Record<string, UsageSource>> = {
  claude: { label: 'claude transcript', accumulator: () => new ClaudeTranscriptAccumulator(), locate: inTranscriptFolders },
  codex: {
    label: 'codex rollout',
    accumulator: () => new CodexRolloutAccumulator(),
    locate: (preset, id, env) =>
      preset.resume.supported && preset.resume.sessionFile ? bySessionFileName(preset.resume.sessionFile, id, env) : undefined,
  },
  pi: {
    label: 'pi session',
    accumulator: () => new PiSessionAccumulator(),
    locate: (_preset, id, env) => bySessionFileName(PI_SESSION_FILES, id, env),
    discover: PI_SESSION_FILES,
  },
  qwen: {
    label: 'qwen chat recording',
    accumulator: () => new QwenChatAccumulator(),
    locate: (_preset, id, env) => bySessionFileName(QWEN_CHAT_FILES, id, env),
    discover: QWEN_CHAT_FILES,
  },
  copilot: {
    label: 'copilot session events',
    accumulator: () => new CopilotEventsAccumulator(),
    locate: (_preset, id, env) => existingFile(join(homeOf(COPILOT_EVENT_FILES, env), id, 'events.jsonl')),
    discover: COPILOT_EVENT_FILES,
  },
  // opencode 1.18.33 keeps messages in SQLite (`<data dir>/opencode.db`): its status plugin posts each step instead.
  opencode: { label: 'opencode steps', accumulator: () => new OpencodeStepAccumulator(), posted: true },
  gemini: {
    label: 'gemini chat recording',
    accumulator: () => new GeminiChatAccumulator(),
    locate: (_preset, path) => (isFile(path) ? path : undefined),
    hookTranscript: GEMINI_CHAT_FILE,
  },
};

type Home = { homeEnv: string; defaultHome: string; dir: string };

function homeOf(rule: Home, env: Readonly<Record<string, string>>): string {
  return join(env[rule.homeEnv] ?? process.env[rule.homeEnv] ?? rule.defaultHome.replace(/^~/, env.HOME ?? homedir()), rule.dir);
}

/** Claude Code: `<home>/projects/<any folder>/<id>.jsonl` (the folder encodes the cwd its own way). */
function inTranscriptFolders(preset: AgentPreset, sessionId: string, env: Readonly<Record<string, string>>): string | undefined {
  const rule = preset.resume.supported ? preset.resume.transcript : undefined;
  if (!rule) return undefined;
  const root = homeOf(rule, env);
  const fileName = rule.fileName.split(SESSION_PLACEHOLDER).join(sessionId);
  for (const folder of listDir(root)) {
    const file = join(root, folder, fileName);
    if (isFile(file)) return file;
  }
  return undefined;
}

/** Codex, pi: the file under the rule's folder whose name's captured id is the session's. */
function bySessionFileName(rule: SessionFileRule, sessionId: string, env: Readonly<Record<string, string>>): string | undefined {
  const search = (dir: string, depth: number): string | undefined => {
    for (const name of listDir(dir).sort().reverse()) {
      const file = join(dir, name);
      if (rule.pattern.exec(file)?.[1] === sessionId) return file;
      if (depth < MAX_DEPTH && !name.endsWith('.jsonl')) {
        const found = search(file, depth + 1);
        if (found) return found;
      }
    }
    return undefined;
  };
  return search(homeOf(rule, env), 0);
}

function existingFile(file: string): string | undefined {
  return isFile(file) ? file : undefined;
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
