/**
 * The notification settings as the Devices panel edits them: webhooks one URL per line, one ntfy
 * topic as its URL (`https://ntfy.sh/my_topic`) with an optional token, quiet hours and "only while
 * I am away" each behind a checkbox. Secrets arrive masked from the server and are sent back as they
 * are when untouched (the server keeps the stored ones); further ntfy topics set elsewhere are kept.
 */
import { NotificationSettingsSchema, type NotificationSettings, type NtfyTarget } from '../../../shared/notifications';

export interface NotificationForm {
  webPush: boolean;
  /** One URL per line. */
  webhooks: string;
  /** `https://SERVER/TOPIC`, or empty for none. */
  ntfyUrl: string;
  ntfyToken: string;
  /** ntfy topics beyond the first (the panel edits one; the others stay as they are). */
  otherNtfy: NtfyTarget[];
  quiet: boolean;
  quietFrom: string;
  quietTo: string;
  away: boolean;
  awayMinutes: string;
}

const DEFAULT_QUIET = { from: '22:00', to: '07:00' };
const DEFAULT_AWAY_MINUTES = 5;

export function formOf(settings: NotificationSettings): NotificationForm {
  const [ntfy, ...otherNtfy] = settings.ntfy;
  return {
    webPush: settings.webPush,
    webhooks: settings.webhooks.map((w) => w.url).join('\n'),
    ntfyUrl: ntfy ? ntfyTopicUrl(ntfy) : '',
    ntfyToken: ntfy?.token ?? '',
    otherNtfy,
    quiet: settings.quietHours !== undefined,
    quietFrom: settings.quietHours?.from ?? DEFAULT_QUIET.from,
    quietTo: settings.quietHours?.to ?? DEFAULT_QUIET.to,
    away: settings.onlyWhenAwayMinutes !== undefined,
    awayMinutes: String(settings.onlyWhenAwayMinutes ?? DEFAULT_AWAY_MINUTES),
  };
}

function ntfyTopicUrl(target: NtfyTarget): string {
  return `${target.server.replace(/\/+$/, '')}/${target.topic}`;
}

/** `https://ntfy.example.com/base/topic` → server `https://ntfy.example.com/base`, topic `topic`. */
function ntfyTargetOf(topicUrl: string, token: string): NtfyTarget | string {
  let url: URL;
  try {
    url = new URL(topicUrl);
  } catch {
    return `ntfy: "${topicUrl}" is not a URL (write it as https://ntfy.sh/your_topic)`;
  }
  const segments = url.pathname.split('/').filter(Boolean);
  const topic = segments.pop();
  if (!topic || url.search || url.hash) return 'ntfy: give the topic URL, e.g. https://ntfy.sh/your_topic';
  const server = `${url.origin}${segments.map((s) => `/${s}`).join('')}`;
  return { server, topic, ...(token.trim() && { token: token.trim() }) };
}

/** The settings the form describes, or the first problem as one line naming the field. */
export function settingsOf(form: NotificationForm): { settings: NotificationSettings } | { problem: string } {
  const ntfy = form.ntfyUrl.trim() ? ntfyTargetOf(form.ntfyUrl.trim(), form.ntfyToken) : undefined;
  if (typeof ntfy === 'string') return { problem: ntfy };
  const candidate = {
    webPush: form.webPush,
    webhooks: form.webhooks
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .map((url) => ({ url })),
    ntfy: [...(ntfy ? [ntfy] : []), ...form.otherNtfy],
    ...(form.quiet && { quietHours: { from: form.quietFrom, to: form.quietTo } }),
    ...(form.away && { onlyWhenAwayMinutes: Number(form.awayMinutes) }),
  };
  const parsed = NotificationSettingsSchema.safeParse(candidate);
  if (parsed.success) return { settings: parsed.data };
  const issue = parsed.error.issues[0];
  return { problem: `${FIELD_NAMES[String(issue.path[0])] ?? String(issue.path[0])}: ${issue.message}` };
}

const FIELD_NAMES: Record<string, string> = {
  webhooks: 'Webhooks',
  ntfy: 'ntfy',
  quietHours: 'Quiet hours',
  onlyWhenAwayMinutes: 'Only while away (minutes, 1–240)',
};

/** "just now", "12 min ago", "3 h ago", "2 days ago", or "never". */
export function lastUseLabel(at: number | undefined, now: number): string {
  if (at === undefined) return 'never';
  const minutes = Math.floor((now - at) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

/** Device commands exist for the person at this machine: the desktop app, or a loopback tab of serve. */
export function isAtThisMachine(hostname: string, hasDesktopBridge: boolean): boolean {
  return hasDesktopBridge || ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(hostname);
}
