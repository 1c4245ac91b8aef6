// `npm run dist`: build the app, then package it for this platform with electron-builder.
import { spawnSync } from 'node:child_process';

const run = (command, args) => {
  const result = spawnSync(command, args, { stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
run('npx', ['electron-vite', 'build']);
run('npx', ['electron-builder', '--config', 'electron-builder.yml', '--publish', 'never', ...process.argv.slice(2)]);
