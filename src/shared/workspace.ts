/**
 * The workspace: every project open in one window. Project-level commands (open, close, switch,
 * recent projects, folder completion) are answered by the workspace; every other command of the
 * control API is addressed to one open project by its id.
 */
import { z } from 'zod';
import { DeviceCommandArgs, type DeviceResults } from './devices';
import type { ProjectWaitingAgent } from './inbox';

const ProjectId = z.string().min(1, 'project id is required').max(100);
/** Longest folder path accepted from a client (PATH_MAX on Linux). */
const MAX_PATH_CHARS = 4096;
const FolderPath = z.string().min(1, 'a folder path is required').max(MAX_PATH_CHARS);
/** Longest SSH destination accepted (a config alias or `user@host`; ssh's own host name limit is 1025). */
const MAX_DESTINATION_CHARS = 1025;
/** Whether `text` holds a control character (a newline, an escape, DEL): never part of a host or a folder typed. */
export function hasControlCharacter(text: string): boolean {
  return [...text].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);
}
const SshDestination = z
  .string()
  .trim()
  .min(1, 'a host is required')
  .max(MAX_DESTINATION_CHARS)
  .regex(/^[^-]/, 'a host cannot start with "-"')
  .regex(/^\S+$/, 'a host contains no spaces')
  .refine((text) => !hasControlCharacter(text), 'a host contains no control characters');
/**
 * The shape of a destination Switchboard connects to: `host`, a config alias, `user@host`,
 * `[v6addr]`, or `ssh://[user@]host[:port]`. Anything else (`$(…)`, quotes, `;|&`, spaces, a
 * leading `-`) is refused before ssh runs: a user's `ProxyCommand` with `%h` hands the host to a
 * shell (OpenSSH before 9.6 does not refuse it), and `-` would read as an option.
 */
const DESTINATION_USER = '[A-Za-z0-9_][A-Za-z0-9._-]*';
const DESTINATION_HOST = '(?:[A-Za-z0-9_][A-Za-z0-9._-]*|\\[[0-9A-Fa-f:.]+(?:%[A-Za-z0-9_.-]+)?\\])';
const PLAIN_DESTINATION = new RegExp(`^(?:${DESTINATION_USER}@)?${DESTINATION_HOST}$`);
const SSH_URI_DESTINATION = new RegExp(`^ssh://(?:${DESTINATION_USER}@)?${DESTINATION_HOST}(?::[0-9]{1,5})?$`);

/** Why `destination` is not the shape of a host, or undefined when it is. */
export function sshDestinationProblem(destination: string): string | undefined {
  if (!destination) return 'a host is required';
  if (destination.length > MAX_DESTINATION_CHARS) return `a host is at most ${MAX_DESTINATION_CHARS} characters`;
  if (destination.startsWith('-')) return 'a host cannot start with "-"';
  if (/\s/.test(destination) || hasControlCharacter(destination)) return 'a host contains no spaces or control characters';
  if (PLAIN_DESTINATION.test(destination) || SSH_URI_DESTINATION.test(destination)) return undefined;
  return 'a host is a name, an ssh config alias, user@host, [v6 address] or ssh://[user@]host[:port] (letters, digits, ".", "_", "-")';
}

/** A destination to connect to now: its shape is checked. */
const NewSshDestination = z
  .string()
  .trim()
  .superRefine((text, ctx) => {
    const problem = sshDestinationProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
/** A folder on the host (`~/…`, relative to the host user's home, or absolute); empty means none. */
const RemoteFolder = z
  .string()
  .trim()
  .max(MAX_PATH_CHARS)
  .refine((text) => !hasControlCharacter(text), 'a folder contains no control characters');

export const WorkspaceCommandArgs = {
  /** Open projects, the active one and the recent list (with what ran last time). */
  getWorkspace: z.strictObject({}),
  /** Open a folder (an already open project is focused instead). */
  openProject: z.strictObject({ dir: FolderPath }),
  /** Stop only this project's process trees and close it. */
  closeProject: z.strictObject({ projectId: ProjectId }),
  /** Make a project the one the window shows. */
  focusProject: z.strictObject({ projectId: ProjectId }),
  /** Folder names completing `partial`, within the allowed roots only. */
  completePath: z.strictObject({ partial: z.string().max(MAX_PATH_CHARS) }),
  /** The desktop app's native folder dialog; opens the chosen folder. Not available in a browser. */
  chooseFolder: z.strictObject({}),
  /** Every open project's waiting agents, the one waiting longest first (the inbox); answers go to the project. */
  listWaitingAcrossProjects: z.strictObject({}),
  /**
   * Connects a remote host over the system's ssh (as `serve --remote DEST[:DIR]`) and opens `dir`
   * there when given; the host is remembered. Fails with one line (unknown host, refused key, …).
   */
  addHost: z.strictObject({ destination: NewSshDestination, dir: RemoteFolder.optional() }),
  /** Ends one host's connection; its processes and files stay as they are there, and it stays remembered. */
  disconnectHost: z.strictObject({ destination: SshDestination }),
  /** Removes a host from the remembered ones (disconnecting it first); nothing on the host is touched. */
  forgetHost: z.strictObject({ destination: SshDestination }),
  ...DeviceCommandArgs,
} as const;

export type WorkspaceCommandName = keyof typeof WorkspaceCommandArgs;

export interface OpenProjectInfo {
  /** Stable per folder (the same folder gets the same id after a reopen). */
  id: string;
  dir: string;
  name: string;
  /** The SSH destination the project lives on (its dir is the host's); absent for this machine's. */
  host?: string;
  /** Entries waiting for a person (attention flags, agents waiting). */
  needsAttention: number;
  /** Entries with a live process. */
  running: number;
}

/** `remembered`: connected before (remote-hosts.json), not in this run; the others are RemoteHost's states. */
type RemoteHostStatus = 'remembered' | 'connecting' | 'connected' | 'disconnected' | 'failed';

/** A remote host as the welcome view and the switcher list it; its open projects are in `projects`, tagged `host`. */
export interface RemoteHostInfo {
  /** The SSH destination, as the user's ssh takes it. */
  destination: string;
  status: RemoteHostStatus;
  /** Why it is disconnected or failed: one line. */
  message?: string;
  /** Folders opened there (remembered ones included), as typed. */
  folders: RemoteFolderInfo[];
}

interface RemoteFolderInfo {
  /** As typed (`~/…`, relative to the host user's home, or absolute). */
  dir: string;
  /** Its project's id (as `projects` lists it) while it is open. */
  projectId?: string;
}

export interface RecentProjectInfo {
  dir: string;
  name: string;
  /** Epoch ms of the last open. */
  openedAt: number;
  /** Names of the entries that were running when the project was last closed. */
  lastRun: string[];
  /** Entries that needed a person: live for open projects, as left at close for the others. */
  needsAttention: number;
  /** The open project's id, when it is open now. */
  openId?: string;
}

export interface WorkspaceState {
  projects: OpenProjectInfo[];
  activeId?: string;
  recent: RecentProjectInfo[];
  /** Whether `chooseFolder` shows a native dialog here (desktop app) or the path field is the way (browser). */
  hasFolderDialog: boolean;
  /** The folders a typed path may lie in (home and the directories given on the command line). */
  roots: string[];
  /** Remote hosts: this run's in the order added, then the remembered ones, most recent first. */
  hosts: RemoteHostInfo[];
}

export interface PathCompletion {
  /** The folder whose children are listed (after resolving `~`, symlinks and `..`). */
  dir: string;
  /** Full paths of matching sub-folders, sorted. */
  folders: string[];
}

export interface WorkspaceResults extends DeviceResults {
  getWorkspace: WorkspaceState;
  openProject: OpenProjectInfo;
  closeProject: { closed: true };
  focusProject: OpenProjectInfo;
  completePath: PathCompletion;
  chooseFolder: OpenProjectInfo | null;
  listWaitingAcrossProjects: { agents: ProjectWaitingAgent[] };
  /** The host as connected; `project`: the folder's project, now the one shown. */
  addHost: { host: RemoteHostInfo; project?: OpenProjectInfo };
  /** The host as listed now (`remembered`). */
  disconnectHost: { host: RemoteHostInfo };
  forgetHost: { forgotten: true };
}

/** Sent to every viewer whenever the set of open projects, the active one, or their counts change. */
export type WorkspaceEvent = { type: 'workspaceChanged'; workspace: WorkspaceState };
