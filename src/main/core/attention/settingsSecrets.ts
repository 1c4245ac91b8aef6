/**
 * The notification settings as a viewer sees them: a webhook URL's path (Slack, Discord and most
 * relays put their secret there) and an ntfy token are shown masked, with their last characters so
 * the person can tell them apart. A masked value sent back unchanged means "keep what is stored";
 * the stored secret never leaves the service.
 */
import { InvalidArgumentError } from '../../../shared/errors';
import type { NotificationSettings } from '../../../shared/notifications';

/** Never part of a real URL path or token (they are ASCII), so a masked value is unambiguous. */
const MASK = '••••';
/** Shown after the mask; short secrets show nothing of themselves. */
const VISIBLE_TAIL = 4;
const MIN_LENGTH_WITH_TAIL = 12;

function maskSecret(secret: string): string {
  return secret.length >= MIN_LENGTH_WITH_TAIL ? `${MASK}${secret.slice(-VISIBLE_TAIL)}` : MASK;
}

/** `https://hooks.example.com/••••9f2a`: the origin stays readable, the path and query do not. */
function maskUrl(url: string): string {
  const parsed = new URL(url);
  const rest = url.slice(parsed.origin.length);
  return rest === '' || rest === '/' ? url : `${parsed.origin}/${maskSecret(rest.replace(/^\//, ''))}`;
}

const isMasked = (value: string) => value.includes(MASK);

export function maskedSettings(settings: NotificationSettings): NotificationSettings {
  return {
    ...settings,
    webhooks: settings.webhooks.map((w) => ({ url: maskUrl(w.url) })),
    ntfy: settings.ntfy.map((n) => (n.token === undefined ? n : { ...n, token: maskSecret(n.token) })),
  };
}

/** `incoming` with every masked value replaced by the stored secret it stands for; a changed mask is refused. */
export function withKeptSecrets(incoming: NotificationSettings, stored: NotificationSettings): NotificationSettings {
  return {
    ...incoming,
    webhooks: incoming.webhooks.map((w) => {
      if (!isMasked(w.url)) return w;
      const kept = stored.webhooks.find((s) => maskUrl(s.url) === w.url);
      if (!kept) throw new InvalidArgumentError(`The hidden webhook URL ${w.url} was changed: enter the whole URL again.`);
      return kept;
    }),
    ntfy: incoming.ntfy.map((n) => {
      if (n.token === undefined || !isMasked(n.token)) return n;
      const kept = stored.ntfy.find((s) => s.server === n.server && s.topic === n.topic && s.token !== undefined);
      if (!kept?.token || maskSecret(kept.token) !== n.token)
        throw new InvalidArgumentError(`The hidden ntfy token for ${n.server}/${n.topic} does not match the stored one: enter it again.`);
      return { ...n, token: kept.token };
    }),
  };
}
