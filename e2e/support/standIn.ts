/**
 * An agent stand-in for the browser tests: draws Claude Code 2.1.197's idle window title and prompt
 * box (an agent is `starting` until its own screen shows), then, on Enter, its permission dialog
 * (as in recordings/dev-permission-yes).
 */
import type { Page } from '@playwright/test';

export const CLAUDE_PERMISSION_STAND_IN = [
  'printf "\\033]0;✳ Claude Code\\007"',
  'printf "%.0s─" $(seq 1 100); printf "\\n❯ \\n"; printf "%.0s─" $(seq 1 100); read -r x',
  'printf "\\n"; printf "%.0s─" $(seq 1 100)',
  'printf "\\n Do you want to proceed?\\n ❯ 1. Yes\\n   2. No\\n"; read -r y; printf "\\033[2J\\033[H> "; sleep 1000',
].join('; ');

/** Adds an agent from the sidebar's form, as a person would. */
export async function addAgentFromSidebar(page: Page, preset: string, commandLine: string, name: string): Promise<void> {
  await page.getByTestId('add-kind').selectOption('agent');
  await page.getByTestId('add-preset').selectOption(preset);
  await page.getByTestId('add-command').fill(commandLine);
  await page.getByTestId('add-name').fill(name);
  await page.getByTestId('add-submit').click();
}
