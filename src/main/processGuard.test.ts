import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { installProcessGuard, type GuardedProcess } from './processGuard';

function fakeProcess() {
  const emitter = new EventEmitter();
  const exits: number[] = [];
  const proc = Object.assign(emitter, { exit: (code: number) => void exits.push(code) }) as unknown as GuardedProcess & EventEmitter;
  return { proc, exits };
}

function guard(stop: () => Promise<void> = async () => {}) {
  const { proc, exits } = fakeProcess();
  const log: string[] = [];
  const calls: string[] = [];
  const handle = installProcessGuard(proc, {
    name: 'test',
    log: (line) => log.push(line),
    stop: async () => {
      calls.push('stop');
      await stop();
    },
    killNow: () => calls.push('killNow'),
  });
  return { proc, exits, log, calls, handle };
}

describe('process guard', () => {
  it('logs an unhandled rejection and keeps running', () => {
    const { proc, exits, log, calls } = guard();
    proc.emit('unhandledRejection', new Error('Timed out after 60000 ms waiting for idle'));
    expect(log).toEqual([expect.stringMatching(/unhandled promise rejection \(still running\): Error: Timed out/)]);
    expect(exits).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('an uncaught exception kills every process tree, then exits 1', () => {
    const { proc, exits, log, calls } = guard();
    proc.emit('uncaughtException', new TypeError('Invalid URL'));
    expect(calls).toEqual(['killNow']);
    expect(exits).toEqual([1]);
    expect(log[0]).toMatch(/fatal error, killing every process tree before exiting: TypeError: Invalid URL/);
  });

  it('the first signal stops gracefully and exits 0', async () => {
    const { proc, exits, calls } = guard();
    proc.emit('SIGTERM', 'SIGTERM');
    await expect.poll(() => exits).toEqual([0]);
    expect(calls).toEqual(['stop']);
  });

  it('a second signal during a slow stop SIGKILLs the trees at once and exits 128+signal', () => {
    const { proc, exits, calls, log } = guard(() => new Promise(() => {})); // a stop that never ends
    proc.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([]);
    proc.emit('SIGINT', 'SIGINT');
    expect(calls).toEqual(['stop', 'killNow']);
    expect(exits).toEqual([130]);
    expect(log.at(-1)).toMatch(/SIGINT again while stopping: killing every process tree now/);
  });

  it('a failing stop still kills the trees and exits 1', async () => {
    const { proc, exits, calls } = guard(async () => {
      throw new Error('dispose failed');
    });
    proc.emit('SIGHUP', 'SIGHUP');
    await expect.poll(() => exits).toEqual([1]);
    expect(calls).toEqual(['stop', 'killNow']);
  });
});
