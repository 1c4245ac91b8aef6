/**
 * Where an e2e screenshot goes: `UPDATE_SCREENSHOTS=1` writes it to docs/screenshots/ (to commit);
 * otherwise to the test's output folder, so a test run leaves the working tree clean.
 */
import type { TestInfo } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const DOCS_SCREENSHOTS = resolve(__dirname, '../../docs/screenshots');

export function screenshotPath(testInfo: TestInfo, name: string): string {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return testInfo.outputPath(name);
  mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
  return join(DOCS_SCREENSHOTS, name);
}
