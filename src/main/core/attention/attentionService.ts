/**
 * Calls the person where they are: each piece of attention news goes to every channel the person
 * set up (Web Push to paired devices, webhooks, ntfy, `serve --notify`), unless quiet hours or
 * "only while away" hold it back; a resolved one withdraws what went out. Sending never blocks the
 * core: deliveries run on their own and failures are logged.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  NotificationSettingsSchema,
  NtfyTargetSchema,
  WebhookTargetSchema,
  type ChannelTestResult,
  type NotificationAction,
  type NotificationSettings,
} from '../../../shared/notifications';
import { writeFileAtomic } from '../base';
import type { Devices } from '../devices';
import type { Workspace } from '../workspace';
import { AttentionTracker, type AttentionNews } from './attentionTracker';
import type { NotifyChannel } from './channels';
import type { DeliveryTiming } from './delivery';
import { AWAY, mayNotifyNow, type Presence } from './notifyPolicy';
import { ntfyChannel } from './ntfyChannel';
import { maskedSettings, withKeptSecrets } from './settingsSecrets';
import { loadOrCreateVapidKeys, type VapidKeys } from './vapidKeys';
import { webhookChannel } from './webhookChannel';
import { webPushChannel } from './webPushChannel';

const SETTINGS_FILE = 'notifications.json';
const VAPID_FILE = 'vapid-keys.json';
/** `--notify ntfy+https://SERVER/TOPIC` is ntfy; any other URL is a webhook. */
const NTFY_PREFIX = 'ntfy+';

interface AttentionServiceOptions {
  workspace: Workspace;
  devices: Devices;
  dataDir: string;
  /** `serve --notify` targets for this run, beside the saved settings. */
  notifyUrls?: string[];
  presence?: Presence;
  log: (line: string) => void;
  timing?: DeliveryTiming;
}

export class AttentionService {
  private readonly tracker: AttentionTracker;
  private readonly keys: VapidKeys;
  private readonly settingsFile: string;
  private current: NotificationSettings;
  /** Agents whose news went out: only those get a resolved one. */
  private readonly sent = new Set<string>();

  constructor(private readonly options: AttentionServiceOptions) {
    this.keys = loadOrCreateVapidKeys(join(options.dataDir, VAPID_FILE));
    this.settingsFile = join(options.dataDir, SETTINGS_FILE);
    this.current = loadSettings(this.settingsFile);
    // A wrong --notify is refused at start, with the URL's problem named.
    for (const url of options.notifyUrls ?? []) this.channelForUrl(url, options.timing);
    this.tracker = new AttentionTracker(options.workspace);
    this.tracker.onNews((news) => this.dispatch(news));
  }

  /** The VAPID public key devices subscribe with. */
  publicKey(): string {
    return this.keys.publicKey;
  }

  /** The settings with their secrets masked: what any viewer is given. */
  settings(): NotificationSettings {
    return maskedSettings(this.current);
  }

  /** Saves what a viewer sent (masked values keep the stored secret) and answers it masked. */
  setSettings(settings: NotificationSettings): NotificationSettings {
    const parsed = NotificationSettingsSchema.parse(withKeptSecrets(settings, this.current));
    writeFileAtomic(this.settingsFile, `${JSON.stringify(parsed, null, 2)}\n`, 0o600);
    this.current = parsed;
    return maskedSettings(parsed);
  }

  /** A test notification through every channel now (one attempt each), and which worked. */
  async sendTest(): Promise<ChannelTestResult[]> {
    const news: AttentionNews = {
      event: 'attention',
      key: 'switchboard:test',
      project: { id: 'test', name: 'Switchboard' },
      entry: { id: 'test', name: 'Test notification' },
      reason: 'This is a test: notifications reach you here.',
      at: Date.now(),
    };
    const channels = this.channels({ timeoutMs: this.options.timing?.timeoutMs ?? 5_000, backoffMs: [] });
    return Promise.all(
      channels.map((channel) =>
        channel
          .send(news, () => [])
          .then(
            () => ({ channel: channel.label, ok: true }),
            (err: unknown) => ({ channel: channel.label, ok: false, error: err instanceof Error ? err.message : String(err) }),
          ),
      ),
    );
  }

  dispose(): void {
    this.tracker.dispose();
  }

  private dispatch(news: AttentionNews): void {
    const { devices, log } = this.options;
    // A new prompt (or its end) voids the answers sent for the previous one.
    devices.actions.withdraw(news.project.id, news.entry.id);
    if (news.event === 'attention') {
      if (!mayNotifyNow(this.current, this.options.presence ?? AWAY, new Date())) return;
      this.sent.add(news.key);
    } else if (!this.sent.delete(news.key)) return;
    const actionsFor = (deviceId?: string) => this.actionsFor(news, deviceId);
    for (const channel of this.channels()) {
      channel
        .send(news, actionsFor)
        .catch((err: unknown) => log(`${channel.label}: ${news.event} for ${news.entry.name} not sent: ${describe(err)}`));
    }
  }

  private actionsFor(news: AttentionNews, deviceId?: string): NotificationAction[] {
    const base = this.options.devices.publicUrl;
    if (!base || !news.prompt) return [];
    const { fingerprint, choices } = news.prompt;
    return choices
      .filter((c) => (c.id === 'approve' || c.id === 'deny') && !c.takesText)
      .map((c) => {
        const token = this.options.devices.actions.issue({
          projectId: news.project.id,
          entryId: news.entry.id,
          entryName: news.entry.name,
          fingerprint,
          choice: c.id,
          ...(deviceId && { deviceId }),
        });
        return { action: c.id as 'approve' | 'deny', label: c.label, url: `${base}/action/${token}` };
      });
  }

  private channels(timing = this.options.timing): NotifyChannel[] {
    const { devices, log } = this.options;
    const s = this.current;
    const push = s.webPush
      ? [webPushChannel({ keys: this.keys, subject: devices.publicUrl ?? 'mailto:switchboard@localhost', targets: devices, log })]
      : [];
    return [
      ...push,
      ...s.webhooks.map((w) => webhookChannel(w.url, timing)),
      ...s.ntfy.map((n) => ntfyChannel(n, devices.publicUrl, timing)),
      ...(this.options.notifyUrls ?? []).map((url) => this.channelForUrl(url, timing)),
    ];
  }

  private channelForUrl(url: string, timing: DeliveryTiming | undefined): NotifyChannel {
    if (!url.startsWith(NTFY_PREFIX)) return webhookChannel(parseTarget(WebhookTargetSchema, { url }, url).url, timing);
    const parsed = new URL(url.slice(NTFY_PREFIX.length));
    const topic = parsed.pathname.replace(/^\/+|\/+$/g, '');
    const target = parseTarget(NtfyTargetSchema, { server: parsed.origin, topic }, url);
    return ntfyChannel(target, this.options.devices.publicUrl, timing);
  }
}

function parseTarget<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } } },
  value: unknown,
  url: string,
): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`--notify ${url}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return parsed.data;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Missing: the defaults. Unreadable or invalid: refused with the file named, never overwritten. */
function loadSettings(file: string): NotificationSettings {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return NotificationSettingsSchema.parse({});
    throw err;
  }
  const parsed = NotificationSettingsSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}
