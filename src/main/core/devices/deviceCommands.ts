/** The desktop's device and notification commands (arguments already checked against DeviceCommandArgs). */
import type { DeviceCommandName } from '../../../shared/devices';
import { SwitchboardError } from '../../../shared/errors';
import type { ChannelTestResult, NotificationSettings } from '../../../shared/notifications';
import type { Devices } from './devices';

/** What the notification commands need of the service that sends them. */
interface NotificationControls {
  settings(): NotificationSettings;
  setSettings(settings: NotificationSettings): NotificationSettings;
  sendTest(): Promise<ChannelTestResult[]>;
}

/** Where the viewers' reports of the person's presence go. */
interface PresenceSink {
  report(viewer: string, update: { focused?: boolean; inputAt?: number }): void;
}

export function deviceCommandHandler(
  devices: Devices,
  notifications?: NotificationControls,
  presence?: PresenceSink,
): (cmd: DeviceCommandName, args: unknown) => unknown {
  const notify = () => {
    if (!notifications) throw new SwitchboardError('not_found', 'Notifications are not set up here.');
    return notifications;
  };
  return async (cmd, args) => {
    const { deviceId, mayControl, settings } = args as { deviceId: string; mayControl: boolean; settings: NotificationSettings };
    switch (cmd) {
      case 'listDevices':
        return { devices: devices.list(), ...(devices.publicUrl && { publicUrl: devices.publicUrl }) };
      case 'startPairing':
        return devices.startPairing();
      case 'revokeDevice':
        return devices.revoke(deviceId);
      case 'setDeviceControl':
        return devices.setControl(deviceId, mayControl);
      case 'getNotificationSettings':
        return notify().settings();
      case 'setNotificationSettings':
        return notify().setSettings(settings);
      case 'sendTestNotification':
        return { results: await notify().sendTest() };
      case 'reportPresence': {
        const { viewer, focused, idleMs } = args as { viewer: string; focused: boolean; idleMs?: number };
        presence?.report(viewer, { focused, ...(idleMs !== undefined && { inputAt: Date.now() - idleMs }) });
        return { reported: true };
      }
    }
  };
}
