/** A generic webhook: one JSON POST per piece of news (docs/devices.md, "Webhook"). */
import type { WebhookPayload } from '../../../shared/notifications';
import type { AttentionNews } from './attentionTracker';
import type { ActionsFor, NotifyChannel } from './channels';
import { deliver, type DeliveryTiming } from './delivery';

export function webhookChannel(url: string, timing?: DeliveryTiming): NotifyChannel {
  return {
    label: `webhook ${new URL(url).origin}`,
    send(news: AttentionNews, actionsFor: ActionsFor) {
      const payload: WebhookPayload = {
        event: news.event,
        entry: news.entry,
        project: news.project,
        reason: news.reason,
        ...(news.question !== undefined && { question: news.question }),
        actions:
          news.event === 'attention' ? actionsFor().map(({ action, label, url: actionUrl }) => ({ action, label, url: actionUrl })) : [],
        at: news.at,
      };
      return deliver({ url, method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payload) }, timing);
    },
  };
}
