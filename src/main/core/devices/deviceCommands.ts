/** The desktop's device commands (arguments already checked against DeviceCommandArgs), routed to the one Devices. */
import type { DeviceCommandName } from '../../../shared/devices';
import type { Devices } from './devices';

export function deviceCommandHandler(devices: Devices): (cmd: DeviceCommandName, args: unknown) => unknown {
  return (cmd, args) => {
    const { deviceId, mayControl } = args as { deviceId: string; mayControl: boolean };
    switch (cmd) {
      case 'listDevices':
        return { devices: devices.list(), ...(devices.publicUrl && { publicUrl: devices.publicUrl }) };
      case 'startPairing':
        return devices.startPairing();
      case 'revokeDevice':
        return devices.revoke(deviceId);
      case 'setDeviceControl':
        return devices.setControl(deviceId, mayControl);
    }
  };
}
