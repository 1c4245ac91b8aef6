import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MCP_HOOKS_PATH } from '../../../shared/mcp';
import { COPILOT_STATUS_HOOKS, copilotStatusPlugin } from './copilotStatusPlugin';
import { RUN_TOKEN, startHookPosts, type HookPosts } from './testing/hookPosts';

const run = promisify(execFile);

interface HooksFile {
  version: number;
  hooks: Record<string, Array<{ type: string; bash: string; timeoutSec: number }>>;
}

/** The plugin as Copilot loads it from `--plugin-dir`, its hooks run by bash with the input on stdin. */
describe('Copilot CLI status plugin', () => {
  let receiver: HookPosts;
  let hooks: HooksFile['hooks'];
  let dir: string;

  beforeEach(async () => {
    receiver = await startHookPosts();
    dir = copilotStatusPlugin({ url: receiver.url, token: 'unused' });
    hooks = (JSON.parse(readFileSync(join(dir, 'hooks/hooks.json'), 'utf8')) as HooksFile).hooks;
  });

  afterEach(() => receiver.close());

  const runHook = async (copilotEvent: string, input: string) => {
    const child = run('bash', ['-c', hooks[copilotEvent][0].bash], { env: { ...process.env } });
    child.child.stdin!.end(input);
    return child;
  };
  const sampleOf = (copilotEvent: string) => COPILOT_STATUS_HOOKS.find((h) => h.copilotEvent === copilotEvent)!.sample.input;

  it('is a plugin folder of its own (plugin.json with a name, hooks/hooks.json version 1), private, holding no token', () => {
    expect(JSON.parse(readFileSync(join(dir, 'plugin.json'), 'utf8'))).toMatchObject({ name: 'switchboard-status' });
    expect(statSync(join(dir, 'hooks/hooks.json')).mode & 0o777).toBe(0o600);
    expect(Object.keys(hooks).sort()).toEqual(['agentStop', 'errorOccurred', 'userPromptSubmitted']);
    expect(readFileSync(join(dir, 'hooks/hooks.json'), 'utf8')).not.toContain(RUN_TOKEN);
    expect(copilotStatusPlugin({ url: receiver.url, token: 'unused' })).toBe(dir);
  });

  it("posts a failed model call that Copilot retries as ApiRetry, with the provider's message and the run token", async () => {
    await runHook('errorOccurred', sampleOf('errorOccurred'));
    expect(await receiver.eventsAfter(1)).toEqual(['ApiRetry']);
    expect(receiver.posted[0]).toMatchObject({
      path: MCP_HOOKS_PATH,
      authorization: `Bearer ${RUN_TOKEN}`,
      body: { errorContext: 'model_call', recoverable: true, error: { message: expect.stringContaining('Rate limit reached') } },
    });
  });

  it("posts nothing for an error Copilot does not retry or that is not a model call's", async () => {
    await runHook('errorOccurred', sampleOf('errorOccurred').replace('"recoverable":true', '"recoverable":false'));
    await runHook('errorOccurred', sampleOf('errorOccurred').replace('"errorContext":"model_call"', '"errorContext":"tool_execution"'));
    await runHook('agentStop', sampleOf('agentStop'));
    expect(await receiver.eventsAfter(1)).toEqual(['Stop']);
  });

  it("posts the turn's bounds by name alone (not the prompt)", async () => {
    await runHook('userPromptSubmitted', sampleOf('userPromptSubmitted'));
    expect(await receiver.eventsAfter(1)).toEqual(['UserPromptSubmit']);
    expect(receiver.posted[0].body).toEqual({ hook_event_name: 'UserPromptSubmit' });
  });
});
