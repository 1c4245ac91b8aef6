/**
 * The project's `processes` as they run in one worktree (docs/runtime.md): each entry's port, its
 * `${...}` references expanded, and, outside the main checkout, the port passed to servers the
 * framework table knows. The worktree service calls this when it makes a worktree; the main checkout's
 * entries go through it too, so `${port}` means the same everywhere.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import type { ConfigIssue, ProcessConfig } from '../../../shared/config';
import type { ProcessSpec } from '../../../shared/model';
import { processSpecFromConfig } from '../config';
import { defaultPortOf, passPort } from './passPort';
import type { PortAllocator } from './portAllocator';
import { expandTemplate, KNOWN_REFERENCES, templateRefs, type TemplateRef } from './templates';

/** What the runtime needs of a worktree (the worktree service's `WorktreeInfo` has all of it). */
export interface RuntimeWorktree {
  id: string;
  name: string;
  /** Absolute path of its folder. */
  path: string;
  isMain: boolean;
}

interface InstancePlanInput {
  worktree: RuntimeWorktree;
  processes: ReadonlyMap<string, ProcessConfig>;
  /** The main checkout's root, where switchboard.json lives. */
  projectDir: string;
  ports: PortAllocator;
  /** Ports the worktree's instances already listen on (made before an app restart): they keep them. */
  running?: ReadonlyMap<string, number>;
}

export interface Instance {
  spec: ProcessSpec;
  /** Where it listens, when known. */
  port?: number;
  /** Why it does not run in this worktree: it could not be given a port of its own. */
  held?: string;
}

export interface InstancePlan {
  instances: Map<string, Instance>;
  /** Broken references; an entry with one is left out. */
  issues: ConfigIssue[];
}

/** The environment variable naming the worktree an entry runs in. */
export const WORKTREE_ENV = 'SWITCHBOARD_WORKTREE';

export async function planInstances(input: InstancePlanInput): Promise<InstancePlan> {
  const { worktree, processes } = input;
  const issues = checkReferences(processes);
  const broken = new Set(issues.map((issue) => issue.path.split('.')[1]));
  const ports = await portsOf(input, broken, issues);
  for (const issue of issues) broken.add(issue.path.split('.')[1]);
  const instances = new Map<string, Instance>();
  for (const [name, config] of processes) {
    if (broken.has(name)) continue;
    instances.set(name, instanceOf(input, name, config, ports));
  }
  if (!worktree.isMain) for (const instance of instances.values()) instance.spec.worktree = worktree.id;
  return { instances, issues };
}

/** Every reference names something that exists; one issue per bad field. */
function checkReferences(processes: ReadonlyMap<string, ProcessConfig>): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const [name, config] of processes) {
    for (const [field, text] of templatedFields(config)) {
      const problem = templateRefs(text)
        .map((ref) => refProblem(ref, processes))
        .find(Boolean);
      if (problem) issues.push({ path: `processes.${name}.${field}`, message: problem });
    }
  }
  return issues;
}

function refProblem(ref: TemplateRef, processes: ReadonlyMap<string, ProcessConfig>): string | undefined {
  if (ref.kind === 'unknown') return `has an unknown reference \${${ref.text}} (known: ${KNOWN_REFERENCES})`;
  if ((ref.kind === 'portOf' || ref.kind === 'urlOf') && !processes.has(ref.name))
    return `refers to \${${ref.kind === 'portOf' ? 'port' : 'url'}:${ref.name}}, but there is no process named "${ref.name}"`;
  return undefined;
}

/** The fields `${...}` may appear in, by their switchboard.json path below the entry. */
function templatedFields(config: ProcessConfig): Array<[string, string]> {
  return [
    ['command', config.command] as [string, string],
    ...(config.args ?? []).map((arg, i): [string, string] => [`args.${i}`, arg]),
    ...Object.entries(config.env ?? {}).map(([key, value]): [string, string] => [`env.${key}`, value]),
    ...(config.url ? [['url', config.url] as [string, string]] : []),
  ];
}

function refsOf(config: ProcessConfig): TemplateRef[] {
  return templatedFields(config).flatMap(([, text]) => templateRefs(text));
}

/**
 * Each entry's port in this worktree. The main checkout keeps a fixed `port` and a zero-config
 * server's own default; everything else, and every instance elsewhere, gets an allocated one that
 * avoids the main checkout's ports.
 */
async function portsOf(input: InstancePlanInput, broken: ReadonlySet<string>, issues: ConfigIssue[]): Promise<Map<string, number>> {
  const { worktree, processes } = input;
  const mainPorts = new Map<string, number>();
  for (const [name, config] of processes) {
    const port = config.port ?? (usesOwnPort(config) ? undefined : defaultPortOf(commandOf(input, name, config)));
    if (port !== undefined) mainPorts.set(name, port);
  }
  const avoid = new Set(mainPorts.values());
  const ports = new Map<string, number>();
  for (const [name, config] of processes) {
    if (broken.has(name)) continue;
    const fixed = worktree.isMain ? mainPorts.get(name) : input.running?.get(name);
    if (fixed !== undefined) ports.set(name, fixed);
    else if (!worktree.isMain || usesOwnPort(config)) ports.set(name, await input.ports.allocate(worktree.id, name, avoid));
  }
  for (const [name, config] of processes) {
    for (const ref of refsOf(config))
      if ((ref.kind === 'portOf' || ref.kind === 'urlOf') && !broken.has(name) && !ports.has(ref.name) && !broken.has(ref.name))
        issues.push({
          path: `processes.${name}`,
          message: `refers to "${ref.name}", which has no port: give it "port" or \${port} in its args`,
        });
  }
  return ports;
}

function usesOwnPort(config: ProcessConfig): boolean {
  return refsOf(config).some((ref) => ref.kind === 'port');
}

function instanceOf(input: InstancePlanInput, name: string, config: ProcessConfig, ports: ReadonlyMap<string, number>): Instance {
  const { worktree } = input;
  const port = ports.get(name);
  const values = {
    port: () => String(port),
    portOf: (other: string) => String(ports.get(other)),
    urlOf: (other: string) => `http://localhost:${other === name ? port : ports.get(other)}`,
    worktree: worktree.name,
  };
  const expanded: ProcessConfig = {
    ...config,
    command: expandTemplate(config.command, values),
    ...(config.args ? { args: config.args.map((arg) => expandTemplate(arg, values)) } : {}),
    ...(config.env ? { env: Object.fromEntries(Object.entries(config.env).map(([k, v]) => [k, expandTemplate(v, values)])) } : {}),
    ...(config.url ? { url: expandTemplate(config.url, values) } : {}),
    ...(config.cwd ? { cwd: cwdInWorktree(config.cwd, input.projectDir, worktree.path) } : {}),
    ...dependsOnUrls(name, config),
  };
  const spec = processSpecFromConfig(name, expanded, worktree.path);
  if (!worktree.isMain) spec.env = { ...spec.env, [WORKTREE_ENV]: worktree.id };
  if (worktree.isMain || port === undefined) return { spec, ...(port !== undefined ? { port } : {}) };
  return toldItsPort(input, spec, config, port);
}

/** Outside the main checkout a server must hear its port from the command line, its env or the table. */
function toldItsPort(input: InstancePlanInput, spec: ProcessSpec, config: ProcessConfig, port: number): Instance {
  spec.ready = { ...spec.ready, port };
  if (usesOwnPort(config) || config.oneShot) return { spec, port };
  const passed = passPort(
    { argv: spec.argv, cwd: spec.cwd, projectDir: input.worktree.path, env: spec.env, configured: config.framework },
    port,
  );
  if (passed.kind === 'unknown') return { spec, port, held: passed.problem };
  spec.argv = passed.argv;
  spec.env = passed.env;
  return { spec, port };
}

/** `${url:api}` means "api's ready URL", so the entry starts once api is ready. */
function dependsOnUrls(name: string, config: ProcessConfig): Pick<ProcessConfig, 'dependsOn'> {
  const urls = refsOf(config).flatMap((ref) => (ref.kind === 'urlOf' && ref.name !== name ? [ref.name] : []));
  if (urls.length === 0) return {};
  return { dependsOn: { ...Object.fromEntries(urls.map((n) => [n, 'ready' as const])), ...config.dependsOn } };
}

/**
 * A configured cwd in a worktree: an absolute one inside the main checkout's project folder maps
 * to the same place in the worktree's; relative ones and places outside stay as written.
 */
export function cwdInWorktree(cwd: string, mainProjectDir: string, worktreeProjectDir: string): string {
  if (!isAbsolute(cwd)) return cwd;
  const inside = relative(mainProjectDir, cwd);
  return inside.startsWith('..') || isAbsolute(inside) ? cwd : resolve(worktreeProjectDir, inside);
}

function commandOf(input: InstancePlanInput, name: string, config: ProcessConfig) {
  const spec = processSpecFromConfig(name, config, input.projectDir);
  return { argv: spec.argv, cwd: spec.cwd, projectDir: input.projectDir, configured: config.framework };
}
