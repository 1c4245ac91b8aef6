/** What an agent started in a worktree is told about its own app: the worktree and its servers' URLs. */
import type { InstancePlan, RuntimeWorktree } from './instancePlan';
import { WORKTREE_ENV } from './instancePlan';

/** `SWITCHBOARD_WORKTREE`, and `SWITCHBOARD_URL_<NAME>` for each server with a port (`web` → `SWITCHBOARD_URL_WEB`). */
export function agentEnvFor(worktree: RuntimeWorktree, plan: InstancePlan): Record<string, string> {
  const env: Record<string, string> = { [WORKTREE_ENV]: worktree.id };
  for (const [name, instance] of plan.instances) {
    if (instance.port === undefined || instance.held || instance.spec.ready?.oneShot) continue;
    env[`SWITCHBOARD_URL_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`] = `http://localhost:${instance.port}`;
  }
  return env;
}
