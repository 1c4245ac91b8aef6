#!/usr/bin/env node
// Test prerequisites that npm cannot install: Debian's Chromium (Playwright drives it; we never
// download a browser), Python dev servers and Hugo for the readiness tests, and OpenSSH's server
// and nc for the remote-host tests. Installs them with apt-get when we may (root), otherwise says
// exactly what is missing. Fixture apps with their own lock (readiness tests on webpack-dev-server,
// Vite 8 with laravel-vite-plugin and live-server, kept out of the project's dependencies) are
// installed with npm ci first.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const needs = [
  { name: 'chromium', present: () => existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium') },
  { name: 'python3-django', present: () => python('import django') },
  { name: 'python3-flask', present: () => python('import flask') },
  { name: 'python3-uvicorn', present: () => python('import uvicorn') },
  { name: 'hugo', present: () => existsSync('/usr/bin/hugo') },
  // The remote-host tests: Debian's sshd in a network namespace, reached through nc.
  { name: 'openssh-server', present: () => existsSync('/usr/sbin/sshd') },
  { name: 'netcat-openbsd', present: () => existsSync('/usr/bin/nc') },
  // The sandbox tests: bubblewrap, and socat for the relays into its network namespace.
  { name: 'bubblewrap', present: () => existsSync('/usr/bin/bwrap') },
  { name: 'socat', present: () => existsSync('/usr/bin/socat') },
];

function python(code) {
  // Debian's interpreter: a python3 earlier on PATH (pyenv) does not see Debian's packages.
  return spawnSync('/usr/bin/python3', ['-c', code], { stdio: 'ignore' }).status === 0;
}

const FIXTURE_APPS = ['test/fixtures/servers/webpack-app', 'test/fixtures/servers/longtail-app'];
for (const dir of FIXTURE_APPS) {
  if (existsSync(join(dir, 'node_modules'))) continue;
  console.log(`Installing the fixture app in ${dir}`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
}

const missing = needs.filter((n) => !n.present()).map((n) => n.name);
if (missing.length === 0) process.exit(0);
const isRoot = process.getuid?.() === 0;
const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
if (!isRoot || !hasApt) {
  console.error(
    `Missing test prerequisites: ${missing.join(', ')}. Install them (Debian/Ubuntu: sudo apt-get install -y ${missing.join(' ')}) or set CHROMIUM_PATH.`,
  );
  process.exit(1);
}
console.log(`Installing test prerequisites: ${missing.join(', ')}`);
execFileSync('apt-get', ['update'], { stdio: 'inherit' });
execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], {
  stdio: 'inherit',
  env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
});
