/**
 * What a launch asks for: which project (`--project DIR`, or a folder passed as an argument: dock
 * drop, `open -a`, a file manager), and whether devices may reach the app (the same flags as serve).
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DeviceAccessFlags } from '../deviceAccess';

/** serve's device flags, taken by the app too; each takes a value (`--flag VALUE` or `--flag=VALUE`). */
const DEVICE_FLAGS = ['--public-url', '--listen', '--tls-cert', '--tls-key', '--device-port', '--notify'] as const;
const takesValue = (arg: string | undefined) => (DEVICE_FLAGS as readonly string[]).includes(arg ?? '');

/**
 * `firstUserArg` skips the launcher's own arguments: 1 in a packaged app (`[exe, …]`), 2 in
 * development (`[electron, appPath, …]`). Undefined when the launch names no project.
 */
export function projectFromArgv(argv: readonly string[], cwd: string, firstUserArg: number): string | undefined {
  const flag = argv.lastIndexOf('--project');
  if (flag >= 0 && argv[flag + 1]) return resolve(cwd, argv[flag + 1]);
  const folders = argv
    .slice(firstUserArg)
    .filter(
      (arg, i, all) => !arg.startsWith('-') && all[i - 1] !== '--project' && !takesValue(all[i - 1]) && isDirectory(resolve(cwd, arg)),
    );
  return folders.length ? resolve(cwd, folders[folders.length - 1]) : undefined;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The device flags of a launch; a flag without its value is refused with one line. */
export function deviceAccessFromArgv(argv: readonly string[]): DeviceAccessFlags {
  const values = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    if (!takesValue(flag)) continue;
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') throw new Error(`${flag} needs a value`);
    values.set(flag, [...(values.get(flag) ?? []), value]);
  }
  const last = (flag: string) => values.get(flag)?.at(-1);
  const port = last('--device-port');
  if (port !== undefined && !/^\d{1,5}$/.test(port)) throw new Error(`--device-port must be 0–65535, got ${port}`);
  return {
    publicUrl: last('--public-url'),
    listen: last('--listen'),
    tlsCert: last('--tls-cert'),
    tlsKey: last('--tls-key'),
    ...(port !== undefined && { devicePort: Number(port) }),
    notify: values.get('--notify') ?? [],
  };
}
