import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';

/** One name per project directory, whichever symlink or relative path opened it. */
export function projectKey(projectDir: string): string {
  const absolute = resolve(projectDir);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}
