/**
 * What to run in a folder that has no switchboard.json yet, from what the project already
 * declares. Declared dev processes (Procfile.dev, package scripts) come first; a framework's
 * well-known server command is added only when nothing declared already runs it; a production
 * Procfile, compose services and Makefile targets are offered unticked unless nothing else was found.
 */
import { join } from 'node:path';
import { CONFIG_FILE_NAME } from '../../../shared/config';
import type { ConfigProposal, ProposedEntry } from '../../../shared/proposal';
import { resolveCommand } from '../sessions';
import { ProjectFiles } from './projectFiles';
import type { ProposalContext } from './manifests/context';
import { proposeFromPackageScripts } from './manifests/packageScripts';
import { proposeFromDevProcfile, proposeFromProcfile } from './manifests/procfile';
import { proposeFrameworkServers } from './manifests/frameworkServers';
import { proposeFromCompose } from './manifests/dockerCompose';
import { proposeFromMakefile } from './manifests/makefile';
import { proposeInstalledAgents } from './manifests/agentClis';

export function proposeConfig(projectDir: string, ctx: ProposalContext): ConfigProposal {
  const files = new ProjectFiles(projectDir);
  if (files.exists(CONFIG_FILE_NAME)) return { projectDir, hasConfig: true, entries: [] };
  const declared = [...proposeFromDevProcfile(files), ...proposeFromPackageScripts(files)];
  const frameworkServers = proposeFrameworkServers(files, ctx, declared);
  const production = proposeFromProcfile(files, frameworkServers.length === 0);
  const processes = [...declared, ...frameworkServers, ...production];
  const fallbacks = [...proposeFromCompose(files, ctx), ...proposeFromMakefile(files)];
  const entries = [...processes, ...selectFirstIfNothingSelected(processes, fallbacks), ...proposeInstalledAgents(ctx)];
  return { projectDir, hasConfig: false, entries: uniqueNames(entries) };
}

/** With no dev process found elsewhere, the first fallback (a compose service, a make target) is ticked. */
function selectFirstIfNothingSelected(processes: readonly ProposedEntry[], fallbacks: ProposedEntry[]): ProposedEntry[] {
  if (processes.some((e) => e.selected) || fallbacks.length === 0) return fallbacks;
  const [first, ...rest] = fallbacks;
  return [{ ...first, selected: true }, ...rest];
}

/** Names must be unique per section: a Procfile "web" and a workspace "web" become web and web-2. */
function uniqueNames(entries: readonly ProposedEntry[]): ProposedEntry[] {
  const taken = new Set<string>();
  return entries.map((entry) => {
    let name = entry.name;
    for (let n = 2; taken.has(`${entry.section}/${name}`); n++) name = `${entry.name}-${n}`;
    taken.add(`${entry.section}/${name}`);
    return name === entry.name ? entry : { ...entry, name };
  });
}

/** Whether `command` resolves to an executable on the PATH of `env` (the app's own environment by default). */
export function isOnPath(command: string, env: Record<string, string | undefined> = process.env): boolean {
  try {
    resolveCommand(command, process.cwd(), env);
    return true;
  } catch {
    return false;
  }
}

export function configPath(projectDir: string): string {
  return join(projectDir, CONFIG_FILE_NAME);
}
