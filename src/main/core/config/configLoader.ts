/**
 * Reads switchboard.json leniently: a broken entry is reported with its field path and skipped,
 * every valid entry is still used, so the app always starts with what it can use.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  CONFIG_FILE_NAME,
  ProcessConfigSchema,
  SettingsSchema,
  WorktreesSectionSchema,
  type ConfigIssue,
  type ProcessConfig,
  type Settings,
  type WorktreesSection,
} from '../../../shared/config';
import { AgentConfigSchema, type AgentConfig } from '../../../shared/agentConfig';
import { BudgetConfigSchema, type BudgetConfig } from '../../../shared/budget';
import { checkDependencies } from './dependencyGraph';

export interface LoadedConfig {
  /** False when there is no switchboard.json (not an error: the app starts empty). */
  exists: boolean;
  processes: Map<string, ProcessConfig>;
  agents: Map<string, AgentConfig>;
  settings: Settings;
  /** The `worktrees` section (docs/worktrees.md, docs/runtime.md); empty when absent or invalid. */
  worktrees: WorktreesSection;
  /** The project's `budget` (docs/usage.md, "Budgets"); absent when not set or invalid. */
  budget?: BudgetConfig;
  issues: ConfigIssue[];
}

const NAME_PATTERN = /^[A-Za-z0-9][\w.-]*$/;
const KNOWN_SECTIONS = new Set(['$schema', 'settings', 'processes', 'agents', 'worktrees', 'budget']);

export function loadConfig(projectDir: string): LoadedConfig {
  const result: LoadedConfig = emptyConfig();
  let text: string;
  try {
    text = readFileSync(join(projectDir, CONFIG_FILE_NAME), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      result.issues.push({ path: '', message: `cannot be read: ${(err as Error).message}` });
    return result;
  }
  result.exists = true;
  return parseConfigText(text, result);
}

export function parseConfigText(text: string, result: LoadedConfig = emptyConfig()): LoadedConfig {
  result.exists = true;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    result.issues.push({ path: '', message: `is not valid JSON: ${(err as Error).message}` });
    return result;
  }
  if (!isPlainObject(json)) {
    result.issues.push({ path: '', message: 'must contain a JSON object with "processes" and/or "agents"' });
    return result;
  }
  for (const key of Object.keys(json)) {
    if (!KNOWN_SECTIONS.has(key))
      result.issues.push({
        path: key,
        message: 'is not a known section (expected "settings", "processes", "agents", "worktrees" or "budget")',
      });
  }
  readSettings(json.settings, result);
  readSection(json.processes, 'processes', ProcessConfigSchema, result.processes, result.issues);
  checkDependencies(result.processes, result.issues);
  readSection(json.agents, 'agents', AgentConfigSchema, result.agents, result.issues);
  readWorktrees(json.worktrees, result);
  readBudget(json.budget, result);
  return result;
}

function readSection<T>(section: unknown, sectionName: string, schema: z.ZodType<T>, into: Map<string, T>, issues: ConfigIssue[]): void {
  if (section === undefined) return;
  if (!isPlainObject(section)) {
    issues.push({ path: sectionName, message: 'must be an object keyed by name' });
    return;
  }
  for (const [name, value] of Object.entries(section)) {
    const path = `${sectionName}.${name}`;
    if (!NAME_PATTERN.test(name)) {
      issues.push({ path, message: 'has an invalid name: use letters, digits, ".", "_" and "-"' });
      continue;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) into.set(name, parsed.data);
    else issues.push(...parsed.error.issues.map((issue) => toConfigIssue(path, issue)));
  }
}

function readWorktrees(section: unknown, result: LoadedConfig): void {
  if (section === undefined) return;
  const parsed = WorktreesSectionSchema.safeParse(section);
  if (parsed.success) result.worktrees = parsed.data;
  else result.issues.push(...parsed.error.issues.map((issue) => toConfigIssue('worktrees', issue)));
}

function readBudget(section: unknown, result: LoadedConfig): void {
  if (section === undefined) return;
  const parsed = BudgetConfigSchema.safeParse(section);
  if (parsed.success) result.budget = parsed.data;
  else result.issues.push(...parsed.error.issues.map((issue) => toConfigIssue('budget', issue)));
}

/** Settings are read field by field: one bad value does not discard the others. */
function readSettings(section: unknown, result: LoadedConfig): void {
  if (section === undefined) return;
  if (!isPlainObject(section)) {
    result.issues.push({ path: 'settings', message: 'must be an object' });
    return;
  }
  const parsed = SettingsSchema.safeParse(section);
  if (parsed.success) {
    result.settings = parsed.data;
    return;
  }
  result.issues.push(...parsed.error.issues.map((issue) => toConfigIssue('settings', issue)));
  const bad = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
  const good = Object.fromEntries(Object.entries(section).filter(([key]) => !bad.has(key)));
  const retry = SettingsSchema.safeParse(good);
  if (retry.success) result.settings = retry.data;
}

function toConfigIssue(prefix: string, issue: z.core.$ZodIssue): ConfigIssue {
  const path = [prefix, ...issue.path.map(String)].join('.');
  if (issue.code === 'unrecognized_keys') {
    return { path, message: `has unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}` };
  }
  if (issue.code === 'invalid_type') {
    return { path, message: `must be ${article(issue.expected)}` };
  }
  return { path, message: issue.message.replace(/^Invalid input: /, '') };
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function emptyConfig(): LoadedConfig {
  return { exists: false, processes: new Map(), agents: new Map(), settings: {}, worktrees: {}, issues: [] };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
