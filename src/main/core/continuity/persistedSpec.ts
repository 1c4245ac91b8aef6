/**
 * What of a spec may be written to disk: env values that carry credentials (src/shared/secretEnv.ts:
 * a secret-looking name, or a value with URL user info) stay in memory unless the entry was marked
 * `persistSecretEnv`; MCP tokens never are in a spec (they are added per run).
 */
import type { ProcessSpec } from '../../../shared/model';
import { isSecretEnv, isSecretEnvName } from '../../../shared/secretEnv';

export { isSecretEnvName };

export function persistableSpec(spec: Readonly<ProcessSpec>): ProcessSpec {
  const { configName: _configName, env, ...rest } = spec;
  if (!env || spec.persistSecretEnv) return { ...rest, argv: [...spec.argv], ...(env ? { env: { ...env } } : {}) };
  const kept = Object.fromEntries(Object.entries(env).filter(([name, value]) => !isSecretEnv(name, value)));
  return { ...rest, argv: [...spec.argv], ...(Object.keys(kept).length > 0 ? { env: kept } : {}) };
}

/** Names of the env values `persistableSpec` leaves out (names only: they are no secret). */
export function withheldEnvNames(spec: Readonly<ProcessSpec>): string[] {
  if (!spec.env || spec.persistSecretEnv) return [];
  return Object.entries(spec.env)
    .filter(([name, value]) => isSecretEnv(name, value))
    .map(([name]) => name);
}
