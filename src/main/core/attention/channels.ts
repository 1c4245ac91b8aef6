/** A way to reach the person: each turns one piece of news into its own format and sends it. */
import type { NotificationAction } from '../../../shared/notifications';
import type { AttentionNews } from './attentionTracker';

/** Issues the Approve / Deny actions for this news, bound to `deviceId` (absent: any paired device). */
export type ActionsFor = (deviceId?: string) => NotificationAction[];

export interface NotifyChannel {
  /** For logs and the test button's results ("webhook https://hooks.example", "ntfy ntfy.sh/topic"); never a secret. */
  readonly label: string;
  /** Resolves when sent (after retries); rejects with why not. */
  send(news: AttentionNews, actionsFor: ActionsFor): Promise<void>;
}

/** The notification's title and body, the same on every channel. */
export function headline(news: AttentionNews): { title: string; body: string } {
  if (news.event === 'resolved') return { title: `${news.entry.name} (${news.project.name})`, body: 'No longer needs you.' };
  const asks = news.question && news.question !== news.reason ? `${news.reason}: ${news.question}` : news.reason;
  return { title: `${news.entry.name} needs you (${news.project.name})`, body: truncate(asks, 400) };
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
