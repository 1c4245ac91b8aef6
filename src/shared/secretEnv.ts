/**
 * Env values that carry credentials are not written to disk (docs/continuity.md) and not shown in
 * clear where a screen may be shared (docs/security.md, "Secrets stay secret"). One rule for both,
 * by name and by value.
 *
 * Names that usually hold credentials (ANTHROPIC_API_KEY, GITHUB_TOKEN, DB_PASSWORD,
 * AWS_SECRET_ACCESS_KEY, …): TOKEN, SECRET or PASSWORD anywhere (any case), and KEY ending a word
 * (API_KEY, APIKEY, KEY_ID) — not KEYBOARD_LAYOUT. A harmless value masked costs a click; a key
 * shown cannot be unshown.
 */
const SECRET_ENV_NAME = /PASSWORD|PASSWD|SECRET|TOKEN|CREDENTIAL|KEY(_|$)|(^|_)(AUTH|COOKIE|PRIVATE|PASS|PAT)(_|$)/i;

/**
 * Values whatever their name: a URL with user info (`postgres://user:pass@db`, `redis://:pass@cache`,
 * `https://<token>@github.com/…`), anywhere in the value (lists of URLs, a JDBC string). A user
 * alone is often a token itself, so any user info counts. `git@github.com:…` has no scheme: no URL.
 */
const CREDENTIAL_VALUE = /[a-z][a-z0-9+.-]*:\/\/[^\s/?#@]+@/i;

export function isSecretEnvName(name: string): boolean {
  return SECRET_ENV_NAME.test(name);
}

/** Whether an env value carries a credential, by its name or its value. */
export function isSecretEnv(name: string, value: string): boolean {
  return isSecretEnvName(name) || CREDENTIAL_VALUE.test(value);
}

/** What stands for a secret value on screen: its length is not told either. */
const MASKED_VALUE = '••••••';

/** `NAME=value` for display, the value masked when it carries a credential. */
export function shownEnvPair(name: string, value: string, reveal = false): string {
  return `${name}=${!reveal && isSecretEnv(name, value) ? MASKED_VALUE : value}`;
}
