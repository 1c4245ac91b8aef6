/**
 * The optional second opinion on a stall (off by default; a task opts in explicitly): before a
 * silence the rules call a stall is acted on, a fast model is shown what the agent was doing and
 * asked whether to wait longer. It can only delay the verdict a bounded number of times, and any
 * failure (no key, network, unreadable answer, too slow) falls back to the rules' verdict.
 */
import type { TaskTrigger } from '../../../shared/task';

/** A fast, cheap model: the question is small and the answer one line. */
export const DEFAULT_SECOND_OPINION_MODEL = 'claude-haiku-4-5';
/** The watchdog does not wait longer than this for an opinion before acting on the rules. */
export const SECOND_OPINION_TIMEOUT_MS = 20_000;
/** A model may keep a silent task alive this many windows at most, per run. */
export const SECOND_OPINION_MAX_EXTENSIONS = 2;
const MAX_ANSWER_TOKENS = 200;
const ANTHROPIC_VERSION = '2023-06-01';
const DEFAULT_BASE_URL = 'https://api.anthropic.com';
const PROMPT_EXCERPT_CHARS = 1_000;

export interface SecondOpinionRequest {
  taskPrompt: string;
  trigger: Exclude<TaskTrigger, 'wall_clock'>;
  silentForMs: number;
  /** What the agent was doing ("running Bash (npm test) for 200 s"). */
  activity: string;
  /** Why the rules call it a stall. */
  ruleReason: string;
  tools: Array<{ name: string; summary: string; runningMs: number }>;
  /** Tail of the agent's streamed text. */
  recentText: string;
}

export interface SecondOpinionVerdict {
  verdict: 'extend' | 'stall';
  reason: string;
}

export type SecondOpinionProvider = (request: SecondOpinionRequest, signal: AbortSignal) => Promise<SecondOpinionVerdict>;

export class SecondOpinionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecondOpinionError';
  }
}

interface AnthropicOpinionConfig {
  /** Messages API base URL (ANTHROPIC_BASE_URL of the task, else the public API). */
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  fetch?: typeof fetch;
}

/**
 * Key and base URL from ONE source: the task's own env when it brings a key, else the app's
 * environment. Mixing them would send the app's key to a URL whoever started the task chose.
 */
export function opinionCredentials(
  taskEnv: Readonly<Record<string, string | undefined>>,
  appEnv: Readonly<Record<string, string | undefined>>,
): Pick<AnthropicOpinionConfig, 'apiKey' | 'baseUrl'> {
  const source = taskEnv.ANTHROPIC_API_KEY ? taskEnv : appEnv;
  return { apiKey: source.ANTHROPIC_API_KEY, baseUrl: source.ANTHROPIC_BASE_URL || undefined };
}

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** The Messages URL, or why the key may not go there: only https, or plain http on loopback. */
function opinionUrl(baseUrl: string | undefined): URL {
  let url: URL;
  try {
    url = new URL('/v1/messages', baseUrl ?? DEFAULT_BASE_URL);
  } catch {
    throw new SecondOpinionError(`ANTHROPIC_BASE_URL ${JSON.stringify(baseUrl)} is not a URL`);
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname)) return url;
  throw new SecondOpinionError(`refusing to send the API key to ${url.origin}: plain HTTP is allowed only to a loopback host`);
}

/** A provider calling the Anthropic Messages API (non-streaming, no tools). */
export function anthropicSecondOpinion(config: AnthropicOpinionConfig): SecondOpinionProvider {
  const model = config.model ?? DEFAULT_SECOND_OPINION_MODEL;
  const doFetch = config.fetch ?? fetch;
  return async (request, signal) => {
    if (!config.apiKey) throw new SecondOpinionError('no ANTHROPIC_API_KEY in the task environment');
    const url = opinionUrl(config.baseUrl);
    let response: Response;
    try {
      response = await doFetch(url, {
        method: 'POST',
        signal,
        headers: { 'content-type': 'application/json', 'x-api-key': config.apiKey, 'anthropic-version': ANTHROPIC_VERSION },
        body: JSON.stringify({
          model,
          max_tokens: MAX_ANSWER_TOKENS,
          stream: false,
          messages: [{ role: 'user', content: opinionPrompt(request) }],
        }),
      });
    } catch (err) {
      throw new SecondOpinionError(
        signal.aborted ? 'no answer in time' : `request failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    if (!response.ok) throw new SecondOpinionError(`${model} answered HTTP ${response.status}`);
    // A body that is not JSON holds no verdict: parseVerdict reports that as an unusable answer.
    const body = (await response.json().catch(() => undefined)) as { content?: Array<{ type?: string; text?: string }> } | undefined;
    const text = (body?.content ?? [])
      .filter((b) => b.type === 'text')
      .map((b) => b.text ?? '')
      .join('');
    return parseVerdict(text);
  };
}

/** Reads `{"verdict": "extend" | "stall", "reason": "…"}` out of a model's answer. */
export function parseVerdict(text: string): SecondOpinionVerdict {
  const match = /\{[\s\S]*\}/.exec(text);
  if (match) {
    try {
      const value = JSON.parse(match[0]) as { verdict?: unknown; reason?: unknown };
      if (value.verdict === 'extend' || value.verdict === 'stall') {
        return {
          verdict: value.verdict,
          reason: typeof value.reason === 'string' && value.reason.trim() ? value.reason.trim().slice(0, 300) : 'no reason given',
        };
      }
    } catch {
      // fall through: not JSON, reported below
    }
  }
  throw new SecondOpinionError(`unreadable answer: ${JSON.stringify(text.slice(0, 120))}`);
}

export function opinionPrompt(request: SecondOpinionRequest): string {
  const prompt =
    request.taskPrompt.length > PROMPT_EXCERPT_CHARS ? `${request.taskPrompt.slice(0, PROMPT_EXCERPT_CHARS)}…` : request.taskPrompt;
  const tools = request.tools.length
    ? request.tools.map((t) => `- ${t.name}${t.summary ? ` (${t.summary})` : ''}, running ${Math.round(t.runningMs / 1000)} s`).join('\n')
    : '- none';
  return [
    'A headless coding agent has gone silent. Decide whether to keep waiting or to treat it as stalled.',
    `Task prompt: ${prompt}`,
    `Silent for: ${Math.round(request.silentForMs / 1000)} s (${request.trigger === 'turn' ? 'no complete message' : 'no output at all'})`,
    `What it was doing: ${request.activity}`,
    `Tools in flight:\n${tools}`,
    `Last text it wrote: ${request.recentText.slice(-500) || '(none)'}`,
    `The rules say: ${request.ruleReason}`,
    'Answer with one JSON object only: {"verdict": "extend" or "stall", "reason": "one short sentence"}.',
    'Say "extend" only if this work plausibly takes longer without printing anything (a build, a test suite, a download).',
  ].join('\n');
}
