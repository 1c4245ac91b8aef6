/** Every open project's usage (local and remote), read through `getUsage`: on opening, on Refresh and as the shown project's agents spend. */
import { useCallback, useEffect, useState } from 'react';
import { useUi } from '../app/store';
import type { ProjectUsageSource } from './usageTable';

export function useProjectUsage(): { sources: ProjectUsageSource[] | undefined; refresh: () => void } {
  const client = useUi((s) => s.workspaceClient);
  const projects = useUi((s) => s.workspace?.projects);
  // The shown project's usage figures: a change means an agent spent, so the view reads again.
  const spent = useUi((s) =>
    Object.values(s.processes)
      .map((p) => (p.usage ? `${p.id}:${p.usage.output_tokens}` : ''))
      .join(' '),
  );
  const [sources, setSources] = useState<ProjectUsageSource[]>();

  const refresh = useCallback(() => {
    if (!client || !projects) return;
    void Promise.all(
      projects.map(async (project): Promise<ProjectUsageSource> => {
        const named = { id: project.id, name: project.name, ...(project.host ? { host: project.host } : {}) };
        try {
          return { project: named, usage: await client.call('getUsage', {}, project.id) };
        } catch (err) {
          // One host that does not answer leaves the others' figures in place.
          return { project: named, problem: err instanceof Error ? err.message : String(err) };
        }
      }),
    ).then(setSources);
  }, [client, projects]);

  useEffect(() => refresh(), [refresh, spent]);
  return { sources, refresh };
}
