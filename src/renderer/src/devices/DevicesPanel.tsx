/**
 * Devices and notifications (docs/devices.md, docs/ui.md): the paired devices with their last use,
 * "may control" and Revoke; "Pair a device" with the QR code, link and one-time code; where
 * notifications go, quiet hours, "only while I am away", and a test through every channel.
 */
import { useCallback, useEffect, useState } from 'react';
import type { DeviceInfo, PairingOffer } from '../../../shared/devices';
import type { ChannelTestResult } from '../../../shared/notifications';
import type { WorkspaceCommandArgs, WorkspaceCommandName, WorkspaceResults } from '../../../shared/workspace';
import type { z } from 'zod';
import { useUi } from '../app/store';
import { OverlayDialog } from '../common/Overlay';
import { errorText } from '../common/errorText';
import { formOf, lastUseLabel, settingsOf, type NotificationForm } from './notificationForm';

/** The list is re-read this often while the panel is open: a device just paired, or used, shows up. */
const DEVICE_REFRESH_MS = 3_000;

function command<C extends WorkspaceCommandName>(cmd: C, args: z.input<(typeof WorkspaceCommandArgs)[C]>): Promise<WorkspaceResults[C]> {
  const client = useUi.getState().workspaceClient;
  if (!client) return Promise.reject(new Error('Not connected to Switchboard yet.'));
  return client.workspace(cmd, args);
}

export function DevicesPanel() {
  return (
    <OverlayDialog label="Devices and notifications" testId="devices-panel" className="devices-panel">
      <header className="overlay-header">
        <h2>Devices and notifications</h2>
        <button aria-label="Close devices" data-testid="devices-close" onClick={() => useUi.getState().setOverlay(undefined)}>
          ×
        </button>
      </header>
      <PairedDevices />
      <NotificationSettingsForm />
    </OverlayDialog>
  );
}

function PairedDevices() {
  const [devices, setDevices] = useState<DeviceInfo[]>();
  const [publicUrl, setPublicUrl] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [offer, setOffer] = useState<PairingOffer>();
  const reload = useCallback(async () => {
    try {
      const listed = await command('listDevices', {});
      setDevices(listed.devices);
      setPublicUrl(listed.publicUrl);
    } catch (err) {
      setProblem(errorText(err));
    }
  }, []);
  useEffect(() => {
    void reload();
    const timer = setInterval(() => void reload(), DEVICE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  const act = async (work: () => Promise<unknown>) => {
    setProblem(undefined);
    try {
      await work();
    } catch (err) {
      setProblem(errorText(err));
    }
    await reload();
  };
  /** Shown at once; the list read afterwards says what the server kept. */
  const setControl = (deviceId: string, mayControl: boolean) => {
    setDevices((list) => list?.map((d) => (d.id === deviceId ? { ...d, mayControl } : d)));
    return act(() => command('setDeviceControl', { deviceId, mayControl }));
  };
  const now = Date.now();
  return (
    <section className="devices-section" aria-labelledby="devices-title" data-testid="devices-list-section">
      <h3 id="devices-title">Paired devices</h3>
      {devices && devices.length === 0 && <p className="devices-hint">No device is paired.</p>}
      <ul className="devices-list" aria-labelledby="devices-title">
        {(devices ?? []).map((d) => (
          <li key={d.id} className="device-row" data-testid="device-row" data-name={d.name}>
            <span className="device-name">{d.name}</span>
            <span className="device-used" data-testid="device-last-use">
              last used {lastUseLabel(d.lastUsedAt, now)}
            </span>
            <span className="device-push">{d.pushSubscriptions > 0 ? 'notifications on' : 'no notifications'}</span>
            <label className="check">
              <input
                type="checkbox"
                checked={d.mayControl}
                data-testid="device-may-control"
                onChange={(e) => void setControl(d.id, e.target.checked)}
              />
              may start and stop entries
            </label>
            <button
              data-testid="device-revoke"
              aria-label={`Revoke ${d.name}`}
              onClick={() => void act(() => command('revokeDevice', { deviceId: d.id }))}
            >
              Revoke
            </button>
          </li>
        ))}
      </ul>
      <button data-testid="pair-start" onClick={() => void act(async () => setOffer(await command('startPairing', {})))}>
        {offer ? 'New pairing code' : 'Pair a device'}
      </button>
      {offer && <PairingOfferView offer={offer} hasPublicUrl={publicUrl !== undefined} />}
      <div role="alert" className="devices-problem" data-testid="devices-problem">
        {problem}
      </div>
    </section>
  );
}

function PairingOfferView({ offer, hasPublicUrl }: { offer: PairingOffer; hasPublicUrl: boolean }) {
  const until = new Date(offer.expiresAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return (
    <div className="pairing-offer" data-testid="pairing-offer">
      {offer.qrSvg && (
        <img
          className="pairing-qr"
          src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(offer.qrSvg)}`}
          alt="QR code of the pairing link"
        />
      )}
      <div className="pairing-text">
        {offer.url ? (
          <p>
            Scan the code with the device, or open{' '}
            <a href={offer.url} data-testid="pairing-link" target="_blank" rel="noreferrer">
              {offer.url}
            </a>{' '}
            there.
          </p>
        ) : (
          <p data-testid="pairing-no-address">
            {hasPublicUrl ? '' : 'Devices cannot reach this machine yet. '}Start serve with{' '}
            <code>--listen ADDR --tls-cert F --tls-key F</code> or <code>--public-url https://…</code>, then pair again.
          </p>
        )}
        <p>
          One-time code <code data-testid="pairing-code">{offer.code}</code>, valid until {until}.
        </p>
      </div>
    </div>
  );
}

function NotificationSettingsForm() {
  const [form, setForm] = useState<NotificationForm>();
  const [notice, setNotice] = useState<string>();
  const [results, setResults] = useState<ChannelTestResult[]>();
  const [isBusy, setBusy] = useState(false);
  useEffect(() => {
    command('getNotificationSettings', {}).then(
      (settings) => setForm(formOf(settings)),
      (err: unknown) => setNotice(errorText(err)),
    );
  }, []);
  if (!form) {
    return (
      <div role="status" className="devices-problem" data-testid="notify-notice">
        {notice}
      </div>
    );
  }
  const change = (patch: Partial<NotificationForm>) => setForm({ ...form, ...patch });
  const busy = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (err) {
      setNotice(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const save = () =>
    busy(async () => {
      const next = settingsOf(form);
      if ('problem' in next) return setNotice(next.problem);
      setForm(formOf(await command('setNotificationSettings', { settings: next.settings })));
      setNotice('Saved.');
    });
  const test = () =>
    busy(async () => {
      setResults(undefined);
      setNotice('Sending a test…');
      setResults((await command('sendTestNotification', {})).results);
      setNotice(undefined);
    });
  return (
    <form
      className="devices-section notify-form"
      aria-labelledby="notify-title"
      data-testid="notify-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h3 id="notify-title">Notifications</h3>
      <p className="devices-hint">When an agent needs you. Set for you on this machine, never by a project.</p>
      <label className="check">
        <input
          type="checkbox"
          checked={form.webPush}
          data-testid="notify-webpush"
          onChange={(e) => change({ webPush: e.target.checked })}
        />
        Push to paired devices that turned notifications on
      </label>
      <label className="notify-field">
        Webhooks (JSON POST), one URL per line
        <textarea rows={2} value={form.webhooks} data-testid="notify-webhooks" onChange={(e) => change({ webhooks: e.target.value })} />
      </label>
      <label className="notify-field">
        ntfy topic URL
        <input
          value={form.ntfyUrl}
          placeholder="https://ntfy.sh/your_topic"
          data-testid="notify-ntfy-url"
          onChange={(e) => change({ ntfyUrl: e.target.value })}
        />
      </label>
      <label className="notify-field">
        ntfy access token (optional)
        <input
          type="password"
          autoComplete="off"
          value={form.ntfyToken}
          data-testid="notify-ntfy-token"
          onChange={(e) => change({ ntfyToken: e.target.value })}
        />
      </label>
      <fieldset className="notify-row">
        <legend className="visually-hidden">Quiet hours</legend>
        <label className="check">
          <input type="checkbox" checked={form.quiet} data-testid="notify-quiet" onChange={(e) => change({ quiet: e.target.checked })} />
          Quiet hours from
        </label>
        <input
          type="time"
          aria-label="Quiet from"
          value={form.quietFrom}
          disabled={!form.quiet}
          data-testid="notify-quiet-from"
          onChange={(e) => change({ quietFrom: e.target.value })}
        />
        <span>to</span>
        <input
          type="time"
          aria-label="Quiet until"
          value={form.quietTo}
          disabled={!form.quiet}
          data-testid="notify-quiet-to"
          onChange={(e) => change({ quietTo: e.target.value })}
        />
      </fieldset>
      <fieldset className="notify-row">
        <legend className="visually-hidden">Only while I am away</legend>
        <label className="check">
          <input type="checkbox" checked={form.away} data-testid="notify-away" onChange={(e) => change({ away: e.target.checked })} />
          Only while I am away: not while the window has focus, nor within
        </label>
        <input
          type="number"
          min={1}
          max={240}
          aria-label="Minutes since my last keystroke"
          value={form.awayMinutes}
          disabled={!form.away}
          data-testid="notify-away-minutes"
          onChange={(e) => change({ awayMinutes: e.target.value })}
        />
        <span>minutes of my last keystroke</span>
      </fieldset>
      <div className="notify-actions">
        <button type="submit" disabled={isBusy} data-testid="notify-save">
          Save
        </button>
        <button type="button" disabled={isBusy} data-testid="notify-test" onClick={() => void test()}>
          Send a test
        </button>
      </div>
      <div role="status" aria-live="polite" className="devices-notice" data-testid="notify-notice">
        {notice}
      </div>
      {results && (
        <ul className="notify-results" data-testid="notify-results">
          {results.length === 0 && <li>No channel is set up: nothing was sent.</li>}
          {results.map((r, i) => (
            <li key={i} data-testid="notify-result" data-ok={r.ok}>
              {r.channel}: {r.ok ? 'sent' : `failed — ${r.error ?? 'no reason given'}`}
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
