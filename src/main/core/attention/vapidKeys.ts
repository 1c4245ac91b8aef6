/**
 * The server's VAPID key pair (RFC 8292), made once and kept in the data directory (0600): a new
 * pair would void every device's subscription, so it is never replaced silently.
 */
import { readFileSync } from 'node:fs';
import webpush from 'web-push';
import { z } from 'zod';
import { writeFileAtomic } from '../base';

const StoredKeys = z.object({ publicKey: z.string().regex(/^[\w-]{87}$/), privateKey: z.string().regex(/^[\w-]{43}$/) });
export type VapidKeys = z.infer<typeof StoredKeys>;

export function loadOrCreateVapidKeys(file: string): VapidKeys {
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (text !== undefined) {
    const parsed = StoredKeys.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${file} is not a VAPID key pair; remove it to make a new one (devices then subscribe again)`);
    return parsed.data;
  }
  const keys = webpush.generateVAPIDKeys();
  writeFileAtomic(file, `${JSON.stringify(keys)}\n`, 0o600);
  return keys;
}
