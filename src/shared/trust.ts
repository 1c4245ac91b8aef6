/**
 * Project trust and MCP token scopes: the contract the core, MCP, `serve` and the UI share.
 * Imports nothing of ours.
 */
import { z } from 'zod';
import type { SandboxOptions } from './sandbox';

/**
 * What a token may do beyond its defaults. Every token may list all entries and read their status,
 * read and drive its own entry and the entries it spawned (and theirs), and spawn processes.
 */
export const MCP_SCOPES = [
  /** Read the output of any entry (get_process_output, search_output, wait_for_pattern, get_task). */
  'entries:read-all',
  /** Type into any entry (send_input, send_message, timers delivered to another entry). */
  'entries:input-all',
  /** Start, stop, restart, rename and close any entry; cancel any task. */
  'entries:control-all',
  /** Start headless tasks with permission_mode "bypassPermissions". */
  'tasks:bypass-permissions',
  /** Merge and remove worktrees another entry (or a person) created. */
  'worktrees:manage-all',
] as const;
export const McpScopeSchema = z.enum(MCP_SCOPES);
export type McpScope = z.infer<typeof McpScopeSchema>;

/**
 * `"mcp": { "scopes": [...] }` on a switchboard.json entry. On a process entry its presence is what
 * gives the process a token at all (commands and terminals get none otherwise); on an agent it
 * adds scopes to the token every agent gets.
 */
export const McpAccessConfigSchema = z.strictObject({
  scopes: z.array(McpScopeSchema).default([]),
});
export type McpAccessConfig = z.infer<typeof McpAccessConfigSchema>;

/** What a config entry would run: exactly the fields its trust fingerprint covers. */
export interface TrustedFields {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** MCP scopes the entry's token would carry (absent: no token for a command). */
  scopes?: McpScope[];
  /** The sandbox it runs in (absent: none; docs/sandbox.md). */
  sandbox?: SandboxOptions;
}

/** The key under which the project's folder itself is trusted: git runs there only after it (docs/security.md). */
export const FOLDER_TRUST_KEY = 'folder';
/** The key of switchboard.json's `worktrees` section: where worktrees go, what is copied in, what set-up runs. */
export const WORKTREES_TRUST_KEY = 'worktrees';

/** What switchboard.json's `worktrees` section does outside the repository, as trust shows it. */
export interface WorktreeTrustFields {
  /** `worktrees.dir` resolved to an absolute folder; absent: Switchboard's own folder in its data directory. */
  dir?: string;
  /** The folder lies outside the project's parent folder (e.g. in a home directory's dotfiles). */
  dirEscapes?: boolean;
  copy: string[];
  setup: string[];
}

/** One config entry waiting for the user's trust: what it would run and why it is asked. */
export interface TrustRequest extends TrustedFields {
  /** "processes.web", "agents.lead", "worktrees" or "folder". */
  key: string;
  name: string;
  /** `folder`: the project's folder itself (git runs there once trusted); `worktrees`: the `worktrees` section. */
  kind: 'command' | 'agent' | 'folder' | 'worktrees';
  /** For `worktrees`: its folder, copies and set-up commands. */
  worktrees?: WorktreeTrustFields;
  /** `new`: never trusted (first open, or added to the file); `changed`: differs from what was trusted. */
  change: 'new' | 'changed';
  /** Would start on its own once trusted. */
  autoStart: boolean;
  /** For `changed`: what is trusted (and may still be running). */
  previous?: TrustedFields;
}

export interface ProjectTrustState {
  /** Nothing waits for trust. */
  trusted: boolean;
  /** The folder is trusted: Switchboard runs git there (hardened) and lists its worktrees. */
  folderTrusted: boolean;
  /** No entry of this project was ever trusted on this machine. */
  firstOpen: boolean;
  pending: TrustRequest[];
}
