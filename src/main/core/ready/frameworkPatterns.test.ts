/**
 * The table test (STYLE: detection tables): every entry matches its real sample lines, and the
 * whole classifier gives that entry's meaning to them; look-alikes that must not count sit below.
 */
import { describe, expect, it } from 'vitest';
import { FRAMEWORK_IDS } from '../../../shared/ready';
import { FRAMEWORK_NAMES, FRAMEWORK_PATTERNS } from './frameworkPatterns';
import { LineClassifier } from './lineClassifier';
import type { FrameworkPattern } from './patternTypes';

const samplesOf = (p: FrameworkPattern) => [{ line: p.sample, source: p.source }, ...(p.moreSamples ?? [])];
const cases = FRAMEWORK_PATTERNS.flatMap((p) => samplesOf(p).map((s) => ({ id: p.id, kind: p.kind, line: s.line, pattern: p })));

describe('framework pattern table', () => {
  it('has unique ids, a sample and a source on every entry, and no stateful regex flags', () => {
    const ids = FRAMEWORK_PATTERNS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of FRAMEWORK_PATTERNS) {
      expect(p.sample, p.id).not.toBe('');
      expect(p.source, p.id).not.toBe('');
      expect(p.regex instanceof RegExp && (p.regex.global || p.regex.sticky), p.id).toBe(false);
      if (p.kind === 'error') expect(p.message, `${p.id} needs a message`).toBeDefined();
    }
  });

  it('covers every framework the spec and issue name', () => {
    const covered = new Set(FRAMEWORK_PATTERNS.map((p) => p.framework));
    for (const id of FRAMEWORK_IDS) expect(covered.has(id), id).toBe(true);
    for (const id of FRAMEWORK_IDS) expect(FRAMEWORK_NAMES[id]).toBeTruthy();
  });

  it.each(cases)('$id matches "$line"', ({ pattern, line }) => {
    expect(pattern.regex.test(line)).toBe(true);
  });

  it.each(cases)('the classifier reads "$line" as $kind', ({ kind, line, id, pattern }) => {
    const result = new LineClassifier(FRAMEWORK_PATTERNS, pattern.framework).classify(line);
    switch (kind) {
      case 'ready':
      case 'error':
      case 'portMoved':
        expect(result.decisive?.pattern.kind, `decided by ${result.decisive?.pattern.id}`).toBe(kind);
        break;
      case 'url':
        expect(result.places.some((p) => p.patternId === id)).toBe(true);
        expect(result.decisive?.pattern.kind).not.toBe('error');
        if (pattern.framework !== 'generic') expect(result.decisive?.pattern.framework).not.toBe('generic');
        break;
      case 'warning-guard':
        expect(result.isWarning).toBe(true);
        expect(result.decisive?.pattern.kind).not.toBe('error');
        break;
      case 'ready-guard':
        expect(result.decisive?.pattern.kind).not.toBe('ready');
        break;
    }
  });
});

describe('look-alikes', () => {
  const classify = (line: string) => new LineClassifier(FRAMEWORK_PATTERNS).classify(line);

  it.each([
    ['Error: database is not ready, retrying in 5 s', '"ready" inside an error message'],
    ["TypeError: Cannot read properties of undefined (reading 'ready')", 'a stack trace about a "ready" property'],
    ['⨯ Error: server did not become ready in 10s', 'a Next.js error mentioning "ready in"'],
    ['Server failed to start on port 3000', 'a failure that mentions a port'],
    ['Debugger listening on ws://127.0.0.1:9229/2f3c6a2e-9d1c-4b1e-8f3a-1c2d3e4f5a6b', "Node's inspector, not the server"],
    ['You can access the existing server at http://localhost:3000,', 'Next.js naming ANOTHER server (lock file)'],
    ['✓ Running next.config took 27ms', 'a Next.js progress tick'],
    ['○ Compiling / ...', 'compiling is not ready'],
    ['VITE v7.3.8 is not ready in 300 ms', 'contrived negation'],
    ['Warming up for 10 s before listening on port 43123...', 'a server announcing where it WILL listen'],
    ['Server will be running at http://localhost:3000 once the build finishes', 'future tense'],
    ['✨  Done in 2.34s.', "yarn 1's end of a script"],
    ['Done in 0.52s.', "yarn 1's end of a script without emoji"],
    ['created pool in 5ms', "an app's own log line, not rollup (no output file)"],
    ['Successfully compiled 0 files with Babel (218ms).', 'babel after a failed file'],
    ['Watching for file changes.', 'swc prints it after a failed first build too'],
    ['[2026-11-24 04:38:26] waiting for changes...', 'rollup prints it after a failed build too'],
    ['Sass is watching for changes. Press Ctrl-C to stop.', 'sass prints it after a failed compile too'],
    ['[11ty] Watching…', 'eleventy prints it after a failed build too'],
    ['[Finished running. Exit status: 101]', 'cargo watch after a failed command'],
    ["[Running 'cargo run']", 'cargo watch running a server'],
    ['watching .', "air's watcher (its app's lines decide)"],
    ['Watcher Process started.', 'deno --watch started the program, which has not finished anything'],
    ['Server running on node 20', 'a bare number that is not right after "on"'],
    ['Server listening on 3000 after the migrations', 'a bare number that does not end the line'],
    ['Server listening on 3000 in 5 s', 'a bare number followed by more'],
  ])('%j is not a ready line (%s)', (line) => {
    expect(classify(line).decisive?.pattern.kind).not.toBe('ready');
  });

  it.each([
    ['npm warn deprecated inflight@1.0.6: This module is not supported, and leaks memory. Do not use it.', 'npm deprecation warning'],
    [
      '(node:4242) [DEP0040] DeprecationWarning: The `punycode` module is deprecated. Please use a userland alternative instead.',
      'Node deprecation',
    ],
    ['⚠ Port 3000 is in use by process 11067, using available port 3001 instead.', 'Next.js moving ports is not a port error'],
    ['Port 5198 is in use, trying another one...', 'Vite moving ports is not a port error'],
    [
      'WARNING: This is a development server. Do not use it in a production deployment. Use a production WSGI server instead.',
      'Flask banner',
    ],
    ['warning: Module not found in optional peer "fsevents" (only on macOS)', 'an error word printed as a warning'],
    ['/app/settings.py:12: RuntimeWarning: error reporting is disabled', 'a Python warning that says "error"'],
    [' GET / 500 in 2.1s (next.js: 1957ms, application-code: 165ms)', 'a request log line'],
    ['INFO:     Application startup complete.', 'uvicorn before binding'],
  ])('%j is not an error line (%s)', (line) => {
    expect(classify(line).decisive?.pattern.kind).not.toBe('error');
  });

  it.each([
    ['Server listening on 3000', 3000],
    ['listening on 8080.', 8080],
    ['App is up at 4173!', 4173],
  ])('%j is a ready line for the bare port %i', (line, port) => {
    const result = classify(line);
    expect(result.decisive?.pattern.id).toBe('generic-server-listening');
    expect(result.places.map((p) => p.port)).toEqual([port]);
  });

  it('Parcel prints "Server running at" before its first build: not ready for Parcel, ready for a Node server', () => {
    const line = 'Server running at http://localhost:1234';
    expect(new LineClassifier(FRAMEWORK_PATTERNS, 'parcel').classify(line).decisive).toBeUndefined();
    expect(new LineClassifier(FRAMEWORK_PATTERNS, 'express').classify(line).decisive?.pattern.kind).toBe('ready');
  });

  it('a warning block covers the error-looking lines below it, up to a blank line', () => {
    // Next.js 14 / webpack print optional-dependency warnings this way.
    const classifier = new LineClassifier(FRAMEWORK_PATTERNS);
    const kinds = [
      '⚠ ./node_modules/node-fetch/lib/index.js',
      "Module not found: Can't resolve 'encoding' in '/app/node_modules/node-fetch/lib'",
      '',
      "Module not found: Can't resolve './Missing' in '/app/src'",
    ].map((line) => classifier.classify(line).decisive?.pattern.kind);
    expect(kinds).toEqual([undefined, undefined, undefined, 'error']);
  });

  it('a port taken while a framework moves on: the move wins over the generic rule', () => {
    const result = classify('warn  - Port 3000 is in use, trying 3001 instead.');
    expect(result.decisive?.pattern.id).toBe('nextjs-port-moved');
    expect(result.places.map((p) => p.port)).toEqual([3001]);
  });

  it('a specific error beats the generic one on the same line', () => {
    expect(classify('Error: listen EADDRINUSE: address already in use :::3000').decisive?.pattern.id).toBe('generic-eaddrinuse-node');
    expect(classify('Address already in use - bind(2) for "127.0.0.1" port 3000 (Errno::EADDRINUSE)').decisive?.pattern.id).toBe(
      'puma-port-in-use',
    );
  });
});
