/**
 * The inbox's refused connections: for each sandboxed entry of the project, each host its sandbox
 * refused and that is still not allowed, with "allow `host` for this agent" (a person decides).
 */
import type { ProcessInfo } from '../../../shared/model';
import { run, useUi } from '../app/store';

interface RefusedTarget {
  process: ProcessInfo;
  target: string;
}

function refusedTargets(processes: Record<string, ProcessInfo>): RefusedTarget[] {
  return Object.values(processes).flatMap((process) => {
    const sandbox = process.sandbox;
    if (!sandbox) return [];
    const targets = [...new Set(sandbox.refused.map((r) => `${r.host.includes(':') ? `[${r.host}]` : r.host}:${r.port}`))];
    return targets.filter((target) => !sandbox.reach.includes(target)).map((target) => ({ process, target }));
  });
}

export function SandboxRefusals() {
  const processes = useUi((s) => s.processes);
  const refused = refusedTargets(processes);
  if (refused.length === 0) return null;
  return (
    <section className="inbox-refusals" aria-labelledby="inbox-refusals-title" data-testid="inbox-refusals">
      <h3 id="inbox-refusals-title">Refused by a sandbox</h3>
      <ul>
        {refused.map(({ process, target }) => (
          <li key={`${process.id} ${target}`}>
            <span>
              {process.name} tried <code>{target}</code>
            </span>
            <button
              data-testid="inbox-allow-host"
              onClick={() => void run((c) => c.call('allowSandboxHost', { id: process.id, host: target }))}
            >
              Allow {target} for this agent
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
