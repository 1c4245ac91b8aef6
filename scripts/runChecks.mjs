#!/usr/bin/env node
// Runs the given npm scripts side by side, one per core, in the order given (longest first), and
// fails if any fails. The static checks (types, lint, cycles, exports, format) and the build share
// nothing, so on two cores the longest runs alone on one while the rest follow each other on the
// other; starting all at once would make the longest share its core and finish last. Each script's
// output is held and printed whole when it ends, so two failures never interleave.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node scripts/runChecks.mjs SCRIPT [SCRIPT ...]');
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(script) {
  const startedAt = Date.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('error', (err) => chunks.push(Buffer.from(`${err.message}\n`)));
    child.on('close', (code, signal) => {
      const ok = code === 0;
      const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
      const output = Buffer.concat(chunks).toString().trimEnd();
      console.log(`${ok ? '✓' : '✗'} ${script} (${seconds} s)${ok ? '' : `: exit ${code ?? signal}`}`);
      if (output && !ok) console.log(output);
      resolve(ok);
    });
  });
}

const queue = [...scripts];
let failed = false;
async function lane() {
  for (let script = queue.shift(); script; script = queue.shift()) failed = !(await run(script)) || failed;
}
await Promise.all(Array.from({ length: Math.min(availableParallelism(), scripts.length) }, lane));
process.exit(failed ? 1 : 0);
