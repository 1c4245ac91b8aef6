/**
 * ntfy (docs.ntfy.sh, "Publishing" as JSON): title, message, priority, tags and `view` action
 * buttons that open the answer page on the paired phone (an `http` button would be sent by the ntfy
 * app without the device's credential). One notification per agent through ntfy's sequence id:
 * news of the same agent updates it, and a resolved one deletes it (ntfy 2.16 and later; an older
 * server shows a new notification instead).
 */
import { createHash } from 'node:crypto';
import type { NtfyTarget } from '../../../shared/notifications';
import type { AttentionNews } from './attentionTracker';
import { headline, type ActionsFor, type NotifyChannel } from './channels';
import { deliver, type DeliveryTiming } from './delivery';

/** ntfy priorities: 5 "max" for a question waiting on the person, 4 "high" for the rest. */
function priorityOf(news: AttentionNews): number {
  return news.prompt ? 5 : 4;
}

export function sequenceIdOf(key: string): string {
  return `sb-${createHash('sha256').update(key).digest('base64url').slice(0, 22)}`;
}

export function ntfyChannel(target: NtfyTarget, clickUrl: string | undefined, timing?: DeliveryTiming): NotifyChannel {
  const server = target.server.replace(/\/+$/, '');
  const auth: Record<string, string> = target.token ? { Authorization: `Bearer ${target.token}` } : {};
  return {
    label: `ntfy ${new URL(server).host}/${target.topic}`,
    send(news: AttentionNews, actionsFor: ActionsFor) {
      const sequenceId = sequenceIdOf(news.key);
      if (news.event === 'resolved')
        return deliver({ url: `${server}/${target.topic}/${sequenceId}`, method: 'DELETE', headers: auth }, timing);
      const { title, body } = headline(news);
      const message = {
        topic: target.topic,
        sequence_id: sequenceId,
        title,
        message: body,
        priority: priorityOf(news),
        tags: news.prompt ? ['raising_hand'] : ['warning'],
        ...(clickUrl && { click: clickUrl }),
        actions: actionsFor().map((a) => ({ action: 'view', label: a.label, url: a.url, clear: true })),
      };
      return deliver(
        { url: server, method: 'POST', headers: { 'Content-Type': 'application/json', ...auth }, body: JSON.stringify(message) },
        timing,
      );
    },
  };
}
