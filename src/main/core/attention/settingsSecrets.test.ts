import { describe, expect, it } from 'vitest';
import { NotificationSettingsSchema, type NotificationSettings } from '../../../shared/notifications';
import { maskedSettings, withKeptSecrets } from './settingsSecrets';

const STORED: NotificationSettings = {
  webPush: true,
  webhooks: [{ url: 'https://hooks.example.com/services/T000/B000/XXXXsecret9f2a' }, { url: 'https://relay.example.net/' }],
  ntfy: [{ server: 'https://ntfy.sh', topic: 'my_agents', token: 'tk_abcdefghijklmnop1234' }],
  quietHours: { from: '22:00', to: '07:00' },
};

describe('notification settings as a viewer sees them', () => {
  it('masks webhook paths and ntfy tokens, keeping the origin, the topic and the last characters', () => {
    const shown = maskedSettings(STORED);
    expect(shown.webhooks).toEqual([{ url: 'https://hooks.example.com/••••9f2a' }, { url: 'https://relay.example.net/' }]);
    expect(shown.ntfy).toEqual([{ server: 'https://ntfy.sh', topic: 'my_agents', token: '••••1234' }]);
    expect(JSON.stringify(shown)).not.toContain('secret');
    expect(JSON.stringify(shown)).not.toContain('tk_abc');
    expect(maskedSettings({ ...STORED, ntfy: [{ server: 'https://ntfy.sh', topic: 't', token: 'short' }] }).ntfy[0].token).toBe('••••');
    // What the viewer gets back passes the settings schema as it is (it is sent back on save).
    expect(NotificationSettingsSchema.safeParse(shown).success).toBe(true);
  });

  it('keeps the stored secrets for masked values sent back, and takes new values as typed', () => {
    const shown = maskedSettings(STORED);
    expect(withKeptSecrets(shown, STORED)).toEqual(STORED);
    const edited = { ...shown, webhooks: [...shown.webhooks, { url: 'https://new.example.org/hook/abc' }] };
    expect(withKeptSecrets(edited, STORED).webhooks).toEqual([...STORED.webhooks, { url: 'https://new.example.org/hook/abc' }]);
    const newToken = { ...shown, ntfy: [{ ...shown.ntfy[0], token: 'tk_fresh' }] };
    expect(withKeptSecrets(newToken, STORED).ntfy[0].token).toBe('tk_fresh');
  });

  it('refuses a masked value that no stored secret stands behind, rather than saving the mask', () => {
    const shown = maskedSettings(STORED);
    const changedMask = { ...shown, webhooks: [{ url: 'https://hooks.example.com/••••9f2b' }] };
    expect(() => withKeptSecrets(changedMask, STORED)).toThrow(/enter the whole URL again/);
    const otherTopic = { ...shown, ntfy: [{ ...shown.ntfy[0], topic: 'other' }] };
    expect(() => withKeptSecrets(otherTopic, STORED)).toThrow(/hidden ntfy token for https:\/\/ntfy.sh\/other/);
  });
});
