/**
 * The workspace: every project open in one window. Project-level commands (open, close, switch,
 * recent projects, folder completion) are answered by the workspace; every other command of the
 * control API is addressed to one open project by its id.
 */
import { z } from 'zod';
import type { ProjectWaitingAgent } from './inbox';

const ProjectId = z.string().min(1, 'project id is required').max(100);
/** Longest folder path accepted from a client (PATH_MAX on Linux). */
const MAX_PATH_CHARS = 4096;
const FolderPath = z.string().min(1, 'a folder path is required').max(MAX_PATH_CHARS);

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
}

export interface PathCompletion {
  /** The folder whose children are listed (after resolving `~`, symlinks and `..`). */
  dir: string;
  /** Full paths of matching sub-folders, sorted. */
  folders: string[];
}

export interface WorkspaceResults {
  getWorkspace: WorkspaceState;
  openProject: OpenProjectInfo;
  closeProject: { closed: true };
  focusProject: OpenProjectInfo;
  completePath: PathCompletion;
  chooseFolder: OpenProjectInfo | null;
  listWaitingAcrossProjects: { agents: ProjectWaitingAgent[] };
}

/** Sent to every viewer whenever the set of open projects, the active one, or their counts change. */
export type WorkspaceEvent = { type: 'workspaceChanged'; workspace: WorkspaceState };
