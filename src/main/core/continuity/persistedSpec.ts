/**
 * What of a spec may be written to disk: env values that look like secrets stay in memory unless
 * the entry was marked `persistSecretEnv`; MCP tokens never are in a spec (they are added per run).
 */
import type { ProcessSpec } from '../../../shared/model';

/** Env names that usually hold credentials (API_KEY, GITHUB_TOKEN, DB_PASSWORD, AWS_SECRET_ACCESS_KEY, …). */
const SECRET_ENV_NAME = /PASSWORD|PASSWD|SECRET|TOKEN|CREDENTIAL|(^|_)(KEY|APIKEY|AUTH|COOKIE|PRIVATE|PASS|PAT)(_|$)/i;

export function isSecretEnvName(name: string): boolean {
  return SECRET_ENV_NAME.test(name);
}

export function persistableSpec(spec: Readonly<ProcessSpec>): ProcessSpec {
  const { configName: _configName, env, ...rest } = spec;
  if (!env || spec.persistSecretEnv) return { ...rest, argv: [...spec.argv], ...(env ? { env: { ...env } } : {}) };
  const kept = Object.fromEntries(Object.entries(env).filter(([name]) => !isSecretEnvName(name)));
  return { ...rest, argv: [...spec.argv], ...(Object.keys(kept).length > 0 ? { env: kept } : {}) };
}
