import { describe, expect, it } from 'vitest';
import {
  SecondOpinionError,
  anthropicSecondOpinion,
  opinionCredentials,
  opinionPrompt,
  parseVerdict,
  type SecondOpinionRequest,
} from './secondOpinion';

const REQUEST: SecondOpinionRequest = {
  taskPrompt: 'Run the test suite',
  trigger: 'idle',
  silentForMs: 180_000,
  activity: 'running Bash (npm test) for 200 s',
  ruleReason: 'Bash (npm test) has run 200 s, past its own 120 s timeout',
  tools: [{ name: 'Bash', summary: 'npm test', runningMs: 200_000 }],
  recentText: 'Running the tests now.',
};

describe('second opinion', () => {
  it('reads the verdict out of an answer, with or without prose around it', () => {
    expect(parseVerdict('{"verdict":"extend","reason":"tests are slow"}')).toEqual({ verdict: 'extend', reason: 'tests are slow' });
    expect(parseVerdict('Sure.\n```json\n{"verdict": "stall", "reason": "hung"}\n```')).toEqual({ verdict: 'stall', reason: 'hung' });
    expect(() => parseVerdict('maybe')).toThrow(SecondOpinionError);
    expect(() => parseVerdict('{"verdict":"perhaps"}')).toThrow(/unreadable answer/);
  });

  it('asks the Messages API with the situation and no tools', async () => {
    let seen:
      | { url: string; headers: Record<string, string>; body: { model: string; messages: Array<{ content: string }>; tools?: unknown } }
      | undefined;
    const fakeFetch = (async (url: URL, init: RequestInit) => {
      seen = { url: url.toString(), headers: init.headers as Record<string, string>, body: JSON.parse(String(init.body)) };
      return new Response(JSON.stringify({ content: [{ type: 'text', text: '{"verdict":"extend","reason":"slow suite"}' }] }), {
        status: 200,
      });
    }) as unknown as typeof fetch;
    const provider = anthropicSecondOpinion({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sk-test', model: 'fast', fetch: fakeFetch });
    await expect(provider(REQUEST, new AbortController().signal)).resolves.toEqual({ verdict: 'extend', reason: 'slow suite' });
    expect(seen?.url).toBe('http://127.0.0.1:9/v1/messages');
    expect(seen?.headers['x-api-key']).toBe('sk-test');
    expect(seen?.body.model).toBe('fast');
    expect(seen?.body.tools).toBeUndefined();
    expect(seen?.body.messages[0].content).toContain('running Bash (npm test) for 200 s');
  });

  it('fails plainly without a key or on an HTTP error', async () => {
    await expect(anthropicSecondOpinion({})(REQUEST, new AbortController().signal)).rejects.toThrow(/no ANTHROPIC_API_KEY/);
    const failing = (async () => new Response('{}', { status: 529 })) as unknown as typeof fetch;
    await expect(
      anthropicSecondOpinion({ apiKey: 'k', model: 'fast', fetch: failing })(REQUEST, new AbortController().signal),
    ).rejects.toThrow('fast answered HTTP 529');
  });

  it("takes key and base URL from one source: the app's key never goes to a URL the task chose", () => {
    const app = { ANTHROPIC_API_KEY: 'sk-app', ANTHROPIC_BASE_URL: undefined };
    expect(opinionCredentials({ ANTHROPIC_BASE_URL: 'https://collector.example' }, app)).toEqual({ apiKey: 'sk-app', baseUrl: undefined });
    expect(opinionCredentials({ ANTHROPIC_API_KEY: 'sk-task', ANTHROPIC_BASE_URL: 'https://proxy.example' }, app)).toEqual({
      apiKey: 'sk-task',
      baseUrl: 'https://proxy.example',
    });
    expect(opinionCredentials({}, { ANTHROPIC_API_KEY: 'sk-app', ANTHROPIC_BASE_URL: 'http://127.0.0.1:8080' })).toEqual({
      apiKey: 'sk-app',
      baseUrl: 'http://127.0.0.1:8080',
    });
  });

  it('refuses plain HTTP to a non-loopback host before sending anything', async () => {
    const calls: string[] = [];
    const fakeFetch = (async (url: URL) => {
      calls.push(url.toString());
      return new Response(JSON.stringify({ content: [{ type: 'text', text: '{"verdict":"stall","reason":"x"}' }] }), { status: 200 });
    }) as unknown as typeof fetch;
    for (const baseUrl of ['http://collector.example', 'http://10.0.0.5:8080', 'http://localhost.evil.example', 'ftp://127.0.0.1']) {
      await expect(
        anthropicSecondOpinion({ baseUrl, apiKey: 'sk', fetch: fakeFetch })(REQUEST, new AbortController().signal),
        baseUrl,
      ).rejects.toThrow(/refusing to send the API key/);
    }
    expect(calls).toEqual([]);
    for (const baseUrl of ['https://proxy.example', 'http://localhost:9', 'http://127.0.0.1:9', 'http://[::1]:9']) {
      await expect(
        anthropicSecondOpinion({ baseUrl, apiKey: 'sk', fetch: fakeFetch })(REQUEST, new AbortController().signal),
      ).resolves.toMatchObject({ verdict: 'stall' });
    }
    expect(calls).toHaveLength(4);
  });

  it("the prompt carries the task, the silence and the rules' view", () => {
    const prompt = opinionPrompt(REQUEST);
    expect(prompt).toContain('Task prompt: Run the test suite');
    expect(prompt).toContain('Silent for: 180 s (no output at all)');
    expect(prompt).toContain('- Bash (npm test), running 200 s');
    expect(prompt).toContain('The rules say: Bash (npm test) has run 200 s');
  });
});
