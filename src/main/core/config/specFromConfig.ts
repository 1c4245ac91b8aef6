/** Turns a switchboard.json process entry into what a session needs to spawn it. */
import { resolve } from 'node:path';
import type { ProcessConfig } from '../../../shared/config';
import type { ProcessSpec } from '../../../shared/model';
import { sandboxOptionsOf } from '../../../shared/sandbox';

export function processSpecFromConfig(name: string, config: ProcessConfig, projectDir: string): ProcessSpec {
  const { command: _command, args: _args, cwd: _cwd, env: _env, autoStart: _autoStart, dependsOn, mcp, sandbox, ...ready } = config;
  const sandboxOptions = sandboxOptionsOf(sandbox);
  return {
    ready,
    ...(dependsOn && Object.keys(dependsOn).length > 0 ? { dependsOn } : {}),
    name,
    kind: 'command',
    argv: commandArgv(config.command, config.args),
    cwd: resolve(projectDir, config.cwd ?? '.'),
    env: config.env,
    configName: name,
    ...(mcp ? { mcp } : {}),
    ...(sandboxOptions ? { sandbox: sandboxOptions } : {}),
  };
}

/** `"npm run dev"` without args is a command line: run it the way a shell would. */
function commandArgv(command: string, args?: string[]): string[] {
  if (args) return [command, ...args];
  return /\s/.test(command.trim()) ? ['/bin/sh', '-c', command] : [command];
}

/**
 * Whether two definitions run the same way, comparing only what switchboard.json gives: the
 * terminal size the UI set, the display name and the start order are not part of a run.
 */
export function sameSpec(a: ProcessSpec, b: ProcessSpec): boolean {
  return stableJson(runFields(a)) === stableJson(runFields(b));
}

/** Whether two definitions are equal in everything the file says (start order included). */
export function sameDefinition(a: ProcessSpec, b: ProcessSpec): boolean {
  return sameSpec(a, b) && stableJson(a.dependsOn ?? {}) === stableJson(b.dependsOn ?? {});
}

/** JSON with object keys sorted: moving a field within the file is not an edit. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

function runFields(spec: ProcessSpec): Omit<ProcessSpec, 'name' | 'cols' | 'rows' | 'dependsOn'> {
  const { name: _name, cols: _cols, rows: _rows, dependsOn: _dependsOn, ...fields } = spec;
  return fields;
}
