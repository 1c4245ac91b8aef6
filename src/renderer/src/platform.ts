/** macOS takes Cmd where other systems take Ctrl+Shift for app and clipboard keys. */
export function isMacPlatform(): boolean {
  return /Mac|iPhone|iPad/.test(navigator.platform);
}
