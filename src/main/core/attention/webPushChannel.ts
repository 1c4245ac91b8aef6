/**
 * Web Push (RFC 8030, payload encrypted per RFC 8291, VAPID per RFC 8292, by the `web-push`
 * library) to every subscription of every paired device. The push service's Topic header lets a
 * newer message of the same agent replace one still queued; the service worker replaces the shown
 * one by `tag`. A service that answers 404 or 410 says the subscription is gone: it is dropped.
 */
import { createHash } from 'node:crypto';
import type { Agent } from 'node:https';
import webpush from 'web-push';
import type { PushSubscriptionJson } from '../../../shared/devices';
import type { PushPayload } from '../../../shared/pushPayload';
import type { AttentionNews } from './attentionTracker';
import { headline, type ActionsFor, type NotifyChannel } from './channels';
import type { VapidKeys } from './vapidKeys';

/** An hour: a phone offline longer gets the news from the app, not a stale buzz. */
const PUSH_TTL_S = 3600;
const PUSH_TIMEOUT_MS = 10_000;

interface PushTargets {
  subscriptions(): { deviceId: string; subscription: PushSubscriptionJson }[];
  unsubscribe(endpoint: string): boolean;
}

interface WebPushOptions {
  keys: VapidKeys;
  /** VAPID `sub`: how the push service reaches the sender's operator (a mailto: or https: URL). */
  subject: string;
  targets: PushTargets;
  log: (line: string) => void;
  /** For a test's own push service with its own certificate. */
  agent?: Agent;
}

/** Topic: at most 32 base64url characters, the same for every message of one agent. */
function topicOf(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 32);
}

export function webPushChannel(options: WebPushOptions): NotifyChannel {
  return {
    label: 'web push',
    async send(news: AttentionNews, actionsFor: ActionsFor) {
      const sends = options.targets.subscriptions().map(({ deviceId, subscription }) => {
        const { title, body } = headline(news);
        const payload: PushPayload = {
          event: news.event,
          tag: news.key,
          title,
          body,
          project: news.project.id,
          entryId: news.entry.id,
          actions: news.event === 'attention' ? actionsFor(deviceId) : [],
        };
        return webpush
          .sendNotification(subscription, JSON.stringify(payload), {
            vapidDetails: { subject: options.subject, publicKey: options.keys.publicKey, privateKey: options.keys.privateKey },
            TTL: PUSH_TTL_S,
            urgency: 'high',
            topic: topicOf(news.key),
            timeout: PUSH_TIMEOUT_MS,
            ...(options.agent && { agent: options.agent }),
          })
          .catch((err: unknown) => {
            const status = (err as { statusCode?: number }).statusCode;
            if (status === 404 || status === 410) {
              options.targets.unsubscribe(subscription.endpoint);
              options.log(`web push: ${new URL(subscription.endpoint).origin} says a subscription is gone (${status}); dropped it`);
              return;
            }
            throw err;
          });
      });
      const failed = (await Promise.allSettled(sends)).filter((r) => r.status === 'rejected');
      if (failed.length > 0) throw new Error(`${failed.length} of ${sends.length} pushes failed: ${describe(failed[0].reason)}`);
    },
  };
}

function describe(err: unknown): string {
  const status = (err as { statusCode?: number }).statusCode;
  return status ? `push service answered ${status}` : err instanceof Error ? err.message : String(err);
}
