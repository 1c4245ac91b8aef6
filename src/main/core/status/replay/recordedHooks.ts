/**
 * The CLI's own hook events a recording's truth file logged as process facts, as the hook
 * receiver would have handed them to the tracker: a replay feeds them at their recorded time, so
 * the score measures what Switchboard sees live (screen and hooks), not the screen alone. Two
 * recorder formats exist: Gemini CLI's (`{ type: "hook", event, notification_type, cast_ms }`) and
 * the shared chat recorder's (`{ ms, fact: "hook: Stop" }`, `"hook: Notification (permission_prompt)"`,
 * `hook: TurnError {"message":"…","status_code":500,"error_name":"APIError"}` with what the post said).
 * Events the receiver does not know (SessionStart) are dropped there, as live.
 */
import { AGENT_HOOK_EVENTS, AGENT_HOOK_EVENT_ALIASES, type AgentHookEvent, type AgentHookEventName } from '../../../../shared/status';

type RecordedHook = Pick<AgentHookEvent, 'notificationType' | 'message' | 'attempt' | 'statusCode' | 'errorName'> & {
  ms: number;
  event: AgentHookEventName;
};

/** Gemini CLI 0.61's only notification type (its hooks reference); its recorder logged names only. */
const GEMINI_NOTIFICATION_TYPE = 'ToolPermission';
const HOOK_FACT = /^hook: (\w+)(?: \((\w+)\))?(?: (\{.*\}))?$/;

export function recordedHooks(truth: { events?: unknown[] }): RecordedHook[] {
  const hooks: RecordedHook[] = [];
  for (const raw of truth.events ?? []) {
    const e = raw as { type?: string; event?: string; notification_type?: string | null; cast_ms?: number; ms?: number; fact?: string };
    if (e.type === 'hook' && typeof e.event === 'string' && typeof e.cast_ms === 'number') {
      const type = e.event === 'Notification' ? (e.notification_type ?? GEMINI_NOTIFICATION_TYPE) : undefined;
      const hook = known(e.cast_ms, e.event, type);
      if (hook) hooks.push(hook);
    }
    const fact = typeof e.fact === 'string' && typeof e.ms === 'number' ? HOOK_FACT.exec(e.fact) : null;
    if (fact) {
      const hook = known(e.ms!, fact[1], fact[2], fact[3]);
      if (hook) hooks.push(hook);
    }
  }
  return hooks.sort((a, b) => a.ms - b.ms);
}

function known(ms: number, name: string, notificationType: string | undefined, saidJson?: string): RecordedHook | undefined {
  const event = AGENT_HOOK_EVENT_ALIASES[name] ?? name;
  if (!(AGENT_HOOK_EVENTS as readonly string[]).includes(event)) return undefined;
  return { ms, event: event, ...(notificationType ? { notificationType } : {}), ...said(saidJson) };
}

/** The receiver's reading of what a post said (its snake_case fields), as the hook event carries it. */
function said(json: string | undefined): Pick<RecordedHook, 'message' | 'attempt' | 'statusCode' | 'errorName'> {
  if (!json) return {};
  const s = JSON.parse(json) as { message?: string; attempt?: number; status_code?: number; error_name?: string };
  const fields = { message: s.message, attempt: s.attempt, statusCode: s.status_code, errorName: s.error_name };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}
