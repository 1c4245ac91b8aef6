import { describe, expect, it } from 'vitest';
import { parseConfigText } from './configLoader';
import { formatConfigIssue } from '../../../shared/config';

describe('switchboard.json loading', () => {
  it('reads the example of docs/config.md', () => {
    const config = parseConfigText(
      JSON.stringify({
        processes: {
          web: { command: 'npm', args: ['run', 'dev'] },
          api: { command: 'python', args: ['manage.py', 'runserver'], port: 8000 },
          jobs: {
            command: './start.sh',
            readyPatterns: ['Server initialized'],
            errorPatterns: ['Failed to start'],
            timeout: 60000,
            autoRestart: 'on-failure',
          },
        },
        agents: { claude: { preset: 'claude' }, reviewer: { preset: 'codex', args: ['--model', 'gpt-5'] } },
      }),
    );
    expect(config.issues).toEqual([]);
    expect([...config.processes.keys()]).toEqual(['web', 'api', 'jobs']);
    expect(config.processes.get('api')?.port).toBe(8000);
    expect(config.agents.get('reviewer')?.args).toEqual(['--model', 'gpt-5']);
  });

  it.each([
    ['{ "processes": { "web": { "command": "npm", "port": "3000" } } }', 'switchboard.json: processes.web.port must be a number'],
    ['{ "processes": { "web": { "args": ["dev"] } } }', 'switchboard.json: processes.web.command must be a string'],
    ['{ "processes": { "web": { "command": "npm", "prot": 3000 } } }', 'switchboard.json: processes.web has unknown field "prot"'],
    [
      '{ "processes": { "web": { "command": "npm", "readyPatterns": ["(unclosed"] } } }',
      'switchboard.json: processes.web.readyPatterns.0 invalid regular expression "(unclosed"',
    ],
    [
      '{ "processes": { "web": { "command": "npm", "errorPatterns": ["ok", "(?<=x)y"] } } }',
      'switchboard.json: processes.web.errorPatterns.1 regular expression "(?<=x)y" cannot run on the linear-time engine',
    ],
    ['{ "processes": [] }', 'switchboard.json: processes must be an object keyed by name'],
    ['{ "servers": {} }', 'switchboard.json: servers is not a known section'],
    ['{ "processes": { "web": { "command": "npm", } }', 'switchboard.json: is not valid JSON'],
  ])('names the field and the problem: %s', (text, expected) => {
    const config = parseConfigText(text);
    expect(config.issues.map(formatConfigIssue).join('\n')).toContain(expected);
  });

  it('keeps every valid entry when another one is broken', () => {
    const config = parseConfigText(
      JSON.stringify({
        processes: { good: { command: 'echo' }, bad: { command: 42 }, alsoGood: { command: 'cat', autoStart: false } },
      }),
    );
    expect([...config.processes.keys()]).toEqual(['good', 'alsoGood']);
    expect(config.issues).toHaveLength(1);
    expect(config.issues[0].path).toBe('processes.bad.command');
  });
});

describe('settings', () => {
  it('reads memory bounds and the kill grace, keeping good fields when one is bad', () => {
    const config = parseConfigText(JSON.stringify({ settings: { outputBufferBytes: 1048576, scrollbackLines: -1, killGraceMs: 500 } }));
    expect(config.settings).toEqual({ outputBufferBytes: 1048576, killGraceMs: 500 });
    expect(config.issues.map(formatConfigIssue)).toEqual(['switchboard.json: settings.scrollbackLines cannot be negative']);
  });
});

describe('worktrees and ${port} references', () => {
  it('a url with ${port} is valid; the worktrees section is read and checked', () => {
    const ok = parseConfigText(
      JSON.stringify({
        processes: { api: { command: 'node', args: ['api.js', '${port}'], url: 'http://localhost:${port}/health' } },
        worktrees: { start: ['api'], idleStop: 600000 },
      }),
    );
    expect(ok.issues).toEqual([]);
    expect(ok.worktrees).toEqual({ start: ['api'], idleStop: 600000 });
    const bad = parseConfigText(JSON.stringify({ worktrees: { start: 'some', idleStop: 5 } }));
    expect(bad.issues.map((i) => i.path).sort()).toEqual(['worktrees.idleStop', 'worktrees.start']);
  });
});
