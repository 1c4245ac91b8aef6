/** Multi-line errors become one sentence: headline + detail, follow-ups, traceback ends. */
import { describe, expect, it } from 'vitest';
import { ErrorMessageComposer } from './errorMessages';
import { FRAMEWORK_PATTERNS } from './frameworkPatterns';
import { LineClassifier } from './lineClassifier';

function compose(lines: string[], knownPort?: number): string[] {
  const classifier = new LineClassifier(FRAMEWORK_PATTERNS);
  const composer = new ErrorMessageComposer();
  const messages: string[] = [];
  for (const line of lines) {
    const report = composer.observe(classifier.classify(line), { frameworkName: 'Server', knownPort });
    if (report) messages.push(report.message);
  }
  return messages;
}

describe('ErrorMessageComposer', () => {
  it('headline, then its detail line', () => {
    expect(compose(['⨯ ./app/page.jsx:3:1', "Error: Expected '>', got '}'"])).toEqual([
      'Error in ./app/page.jsx:3:1',
      "Error in ./app/page.jsx:3:1: Expected '>', got '}'",
    ]);
  });

  it('a detail line that is itself a known error wins', () => {
    expect(compose(['error when starting dev server:', 'Error: Port 5173 is already in use']).at(-1)).toBe('Port 5173 already in use');
    expect(compose(['⨯ Failed to start server', 'Error: listen EADDRINUSE: address already in use :::3000']).at(-1)).toBe(
      'Port 3000 already in use',
    );
    expect(compose(['Failed to compile.', '', "Module not found: Error: Can't resolve './Foo' in '/app/src'"]).at(-1)).toBe(
      "Module not found: Can't resolve './Foo' in '/app/src'",
    );
  });

  it('skips banners and headings when looking for the detail', () => {
    const lines = [
      '***************************',
      'APPLICATION FAILED TO START',
      '***************************',
      '',
      'Description:',
      '',
      'The bean could not be injected.',
    ];
    expect(compose(lines).at(-1)).toBe('Spring Boot failed to start: The bean could not be injected.');
  });

  it('a later, more specific error refines the message ({previous})', () => {
    expect(compose(['✘ [ERROR] Unexpected end of file', '', 'failed to load config from /app/vite.config.ts']).at(-1)).toBe(
      'Vite could not load /app/vite.config.ts: Unexpected end of file',
    );
  });

  it('a less specific error does not replace a specific one', () => {
    const lines = ['Error: listen EADDRINUSE: address already in use :::5094', "  code: 'EADDRINUSE',", 'Node.js v20.20.2'];
    expect(compose(lines)).toEqual(['Port 5094 already in use']);
  });

  it('the port of "That port is already in use" comes from what is known', () => {
    expect(compose(['Error: That port is already in use.'], 8000)).toEqual(['Port 8000 already in use']);
    expect(compose(['Error: That port is already in use.'])).toEqual(['Port already in use']);
  });

  it('a Python traceback ends with its exception, even when chained', () => {
    const lines = [
      'Traceback (most recent call last):',
      '  File "app.py", line 3, in <module>',
      "KeyError: 'DATABASE_URL'",
      '',
      'During handling of the above exception, another exception occurred:',
      '',
      'Traceback (most recent call last):',
      '  File "settings.py", line 9, in <module>',
      'django.core.exceptions.ImproperlyConfigured: Set the DATABASE_URL environment variable',
    ];
    expect(compose(lines).at(-1)).toBe('django.core.exceptions.ImproperlyConfigured: Set the DATABASE_URL environment variable');
  });

  it('a Node crash without a known error is named by its exception line', () => {
    const lines = [
      '/app/server.js:3',
      "    throw new TypeError('boom');",
      '    ^',
      '',
      'TypeError: boom',
      '    at Object.<anonymous> (/app/server.js:3:11)',
      '',
      'Node.js v20.20.2',
    ];
    expect(compose(lines)).toEqual(['TypeError: boom']);
  });

  it('nodemon: the crash keeps the process alive; the message names the exception', () => {
    expect(
      compose(['Error: connect ECONNREFUSED 127.0.0.1:5432', '[nodemon] app crashed - waiting for file changes before starting...']),
    ).toEqual(['Error: connect ECONNREFUSED 127.0.0.1:5432 (nodemon waits for a file change)']);
  });

  it('reset forgets the previous run', () => {
    const classifier = new LineClassifier(FRAMEWORK_PATTERNS);
    const composer = new ErrorMessageComposer();
    composer.observe(classifier.classify('✘ [ERROR] Unexpected end of file'), { frameworkName: 'Server' });
    composer.reset();
    const report = composer.observe(classifier.classify('failed to load config from /app/vite.config.ts'), { frameworkName: 'Server' });
    expect(report?.message).toBe('Vite could not load /app/vite.config.ts');
  });
});
