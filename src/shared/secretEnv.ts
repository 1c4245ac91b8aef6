/**
 * Env names that usually hold credentials (ANTHROPIC_API_KEY, GITHUB_TOKEN, DB_PASSWORD,
 * AWS_SECRET_ACCESS_KEY, …): their values are not written to disk (docs/continuity.md) and not shown
 * in clear where a screen may be shared (docs/security.md, "Secrets stay secret"). A name with
 * TOKEN, SECRET or PASSWORD anywhere (any case) is one, and KEY ending a word (API_KEY, APIKEY,
 * KEY_ID) — not KEYBOARD_LAYOUT. A harmless value masked costs a click; a key shown cannot be unshown.
 */
const SECRET_ENV_NAME = /PASSWORD|PASSWD|SECRET|TOKEN|CREDENTIAL|KEY(_|$)|(^|_)(AUTH|COOKIE|PRIVATE|PASS|PAT)(_|$)/i;

export function isSecretEnvName(name: string): boolean {
  return SECRET_ENV_NAME.test(name);
}

/** What stands for a secret value on screen: its length is not told either. */
const MASKED_VALUE = '••••••';

/** `NAME=value` for display, the value masked when the name looks secret. */
export function shownEnvPair(name: string, value: string, reveal = false): string {
  return `${name}=${!reveal && isSecretEnvName(name) ? MASKED_VALUE : value}`;
}
