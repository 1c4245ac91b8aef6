/** Turns a switchboard.json process entry into what a session needs to spawn it. */
import { resolve } from 'node:path';
import type { ProcessConfig } from '../../../shared/config';
import type { ProcessSpec } from '../../../shared/model';

export function processSpecFromConfig(name: string, config: ProcessConfig, projectDir: string): ProcessSpec {
  const { command: _command, args: _args, cwd: _cwd, env: _env, autoStart: _autoStart, mcp, ...ready } = config;
  return {
    ready,
    name,
    kind: 'command',
    argv: commandArgv(config.command, config.args),
    cwd: resolve(projectDir, config.cwd ?? '.'),
    env: config.env,
    configName: name,
    ...(mcp ? { mcp } : {}),
  };
}

/** `"npm run dev"` without args is a command line: run it the way a shell would. */
export function commandArgv(command: string, args?: string[]): string[] {
  if (args) return [command, ...args];
  return /\s/.test(command.trim()) ? ['/bin/sh', '-c', command] : [command];
}

export function sameSpec(a: ProcessSpec, b: ProcessSpec): boolean {
  return JSON.stringify({ ...a, name: '' }) === JSON.stringify({ ...b, name: '' });
}
