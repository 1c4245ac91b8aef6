/**
 * `dependsOn` checks at load time: every name must be another process, and the graph must have
 * no cycle. A process with a bad dependency is reported with the path and skipped (like any broken
 * entry), and so is whatever depended on it.
 */
import type { ConfigIssue, ProcessConfig } from '../../../shared/config';

export function checkDependencies(processes: Map<string, ProcessConfig>, issues: ConfigIssue[]): void {
  for (const [name, config] of processes) {
    for (const dep of Object.keys(config.dependsOn ?? {})) {
      if (dep === name) issues.push({ path: `processes.${name}.dependsOn.${dep}`, message: 'cannot name the process itself' });
      else if (!processes.has(dep))
        issues.push({
          path: `processes.${name}.dependsOn.${dep}`,
          message: `names no process (known: ${[...processes.keys()].filter((n) => n !== name).join(', ') || 'none'})`,
        });
    }
  }
  for (const cycle of findCycles(processes)) {
    issues.push({ path: `processes.${cycle[0]}.dependsOn.${cycle[1]}`, message: `forms a cycle: ${cycle.join(' → ')}` });
  }
  dropUnusable(processes, issues);
}

/** Each cycle once, as the path that closes it ("a → b → a"). */
function findCycles(processes: ReadonlyMap<string, ProcessConfig>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const visit = (name: string, path: string[]) => {
    if (done.has(name)) return;
    const at = path.indexOf(name);
    if (at >= 0) {
      cycles.push([...path.slice(at), name]);
      return;
    }
    for (const dep of Object.keys(processes.get(name)?.dependsOn ?? {})) {
      if (dep !== name && processes.has(dep)) visit(dep, [...path, name]);
    }
    if (path.length === 0 || !path.includes(name)) done.add(name);
  };
  for (const name of processes.keys()) visit(name, []);
  return cycles;
}

/** Removes entries named by an issue above, then, until stable, entries that depend on a removed one. */
function dropUnusable(processes: Map<string, ProcessConfig>, issues: ConfigIssue[]): void {
  for (const issue of issues) {
    const match = /^processes\.([^.]+)\.dependsOn\./.exec(issue.path);
    if (match) processes.delete(match[1]);
  }
  let changed = true;
  while (changed) {
    changed = false;
    for (const [name, config] of processes) {
      const missing = Object.keys(config.dependsOn ?? {}).find((dep) => !processes.has(dep));
      if (missing === undefined) continue;
      issues.push({ path: `processes.${name}.dependsOn.${missing}`, message: `names a process that cannot be used (see its error)` });
      processes.delete(name);
      changed = true;
    }
  }
}
