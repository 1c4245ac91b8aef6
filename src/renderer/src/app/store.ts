/** UI state (entries, selection, layout). Terminal bytes never pass through here. */
import { create } from 'zustand';
import type { ControlClient, ControlEvent, Snapshot, McpConnectionInfo, ProjectInfo, WorkspaceClient } from '../../../shared/api';
import type { WorkspaceState } from '../../../shared/workspace';
import type { ProcessInfo } from '../../../shared/model';
import type { ConfigIssue } from '../../../shared/config';
import type { ProjectTrustState } from '../../../shared/trust';
import { DEFAULT_UI_STATE, type UiState as ViewState, type UiStatePatch as ViewPatch } from '../../../shared/uiState';

/** The link to the core: `reconnecting` after a drop while retries go on, `lost` when they cannot succeed. */
interface ConnectionState {
  status: 'connected' | 'reconnecting' | 'lost';
  message?: string;
}

/** Wait before writing view changes to the core, so a drag or a resize is one write. */
const VIEW_SAVE_DELAY_MS = 300;
let viewSaveTimer: number | undefined;
/** Unsaved view changes and the project (its client) they belong to. */
let pendingView: { client: ControlClient; patch: ViewPatch } | undefined;

/** Writes the pending view changes now, to the project they were made in. */
function saveViewNow(): void {
  window.clearTimeout(viewSaveTimer);
  const saving = pendingView;
  pendingView = undefined;
  if (!saving) return;
  saving.client.call('setUiState', { patch: saving.patch }).catch((err: unknown) => {
    useUi.getState().setError(err instanceof Error ? err.message : String(err));
  });
}

/** The trust prompt: every waiting entry, or one (`keys`), or one whose Start was pressed (`startId`). */
export interface TrustPromptState {
  keys?: string[];
  startId?: string;
  /** Each opening is a fresh dialog (choices made in an earlier one do not carry over). */
  serial?: number;
}

let promptSerial = 0;
const freshPrompt = (prompt: TrustPromptState = {}): TrustPromptState => ({ ...prompt, serial: ++promptSerial });

/** One overlay at a time: the command palette, the attention inbox, the timer form of an entry, a worktree dialog, devices, or the usage view. */
type Overlay =
  | { kind: 'palette' }
  | { kind: 'inbox' }
  | { kind: 'timer'; ownerId: string }
  | { kind: 'newWorktree' }
  | { kind: 'worktreeDiff'; worktree: string }
  | { kind: 'pruneWorktrees' }
  | { kind: 'usage' }
  | { kind: 'devices' };

const SCREEN_READER_KEY = 'switchboard.screenReaderMode';

function storedScreenReaderMode(): boolean {
  try {
    return localStorage.getItem(SCREEN_READER_KEY) === 'on';
  } catch {
    return false;
  }
}

/** `?panes=all` in the address (no address outside a page, e.g. in unit tests). */
function isAllPanesRequested(): boolean {
  return typeof location !== 'undefined' && new URLSearchParams(location.search).get('panes') === 'all';
}

/** What the window shows of one project; emptied while another project loads. */
const NO_PROJECT = {
  client: undefined,
  project: undefined,
  mcp: undefined,
  processes: {},
  order: [],
  configIssues: [],
  focusedId: undefined,
  maximizedId: undefined,
  trust: undefined,
  trustPrompt: undefined,
  overlay: undefined,
  findPaneId: undefined,
} satisfies Partial<UiState>;

export interface UiState {
  /** Every open project (the transport); `client` below is the active project's view of it. */
  workspaceClient?: WorkspaceClient;
  workspace?: WorkspaceState;
  /** The project the grid and sidebar show; undefined: the welcome view. */
  activeProjectId?: string;
  /** The welcome view over open projects (the switcher's "+"), to open one more. */
  isOpeningAnother: boolean;
  client?: ControlClient;
  project?: ProjectInfo;
  mcp?: McpConnectionInfo;
  processes: Record<string, ProcessInfo>;
  order: string[];
  configIssues: ConfigIssue[];
  focusedId?: string;
  maximizedId?: string;
  error?: string;
  /** Theme, zoom and layout: the active project's view state, kept by its core (shared/uiState.ts). */
  view: ViewState;
  connection: ConnectionState;
  isSidebarHidden: boolean;
  /** The pane whose find bar is open. */
  findPaneId?: string;
  /**
   * Keep every pane's terminal mounted, as before panes were detached out of view (the bench's
   * baseline; `?panes=all` in the address).
   */
  keepAllPanesMounted: boolean;
  trust?: ProjectTrustState;
  trustPrompt?: TrustPromptState;
  overlay?: Overlay;
  /** xterm's screen-reader mode in every pane (remembered in this browser). */
  screenReaderMode: boolean;
  // Actions are properties: zustand builds them as closures over `set`, so they are safe to destructure.
  /** Another project becomes active: its view is empty until its snapshot arrives. */
  showProject: (projectId: string | undefined) => void;
  setClient: (client: ControlClient, snapshot: Snapshot) => void;
  apply: (event: ControlEvent) => void;
  focus: (id: string | undefined) => void;
  toggleMaximize: (id: string) => void;
  setError: (message: string | undefined) => void;
  /** Change the view state here at once and in the active project's core shortly after. */
  updateView: (patch: ViewPatch) => void;
  openTrustPrompt: (prompt?: TrustPromptState) => void;
  closeTrustPrompt: () => void;
  setOverlay: (overlay: Overlay | undefined) => void;
  setScreenReaderMode: (on: boolean) => void;
}

export const useUi = create<UiState>((set, get) => ({
  processes: {},
  order: [],
  configIssues: [],
  view: DEFAULT_UI_STATE,
  connection: { status: 'connected' },
  isSidebarHidden: false,
  keepAllPanesMounted: isAllPanesRequested(),
  screenReaderMode: storedScreenReaderMode(),
  isOpeningAnother: false,
  showProject(projectId) {
    saveViewNow(); // changes made in the project being left belong to it
    // The theme stays until the next project's view arrives (no flash); its layout is its own.
    set({ ...NO_PROJECT, view: { ...DEFAULT_UI_STATE, theme: get().view.theme }, activeProjectId: projectId, isOpeningAnother: false });
  },
  setClient(client, snapshot) {
    const processes = Object.fromEntries(snapshot.processes.map((p) => [p.id, p]));
    set({
      client,
      project: snapshot.project,
      mcp: snapshot.mcp,
      processes,
      order: snapshot.processes.map((p) => p.id),
      configIssues: snapshot.configIssues,
      focusedId: snapshot.selectedId ?? snapshot.processes[0]?.id,
      trust: snapshot.trust,
      // Opening a project with entries nobody trusted yet asks at once, before anything runs.
      trustPrompt: snapshot.trust.pending.length > 0 ? freshPrompt() : undefined,
    });
  },
  apply(event) {
    switch (event.type) {
      case 'processAdded':
      case 'processChanged': {
        const { processes, order } = get();
        const isNew = !processes[event.process.id];
        set({
          processes: { ...processes, [event.process.id]: event.process },
          order: isNew ? [...order, event.process.id] : order,
        });
        break;
      }
      case 'processRemoved': {
        const { [event.id]: _removed, ...processes } = get().processes;
        const order = get().order.filter((id) => id !== event.id);
        set({
          processes,
          order,
          focusedId: get().focusedId === event.id ? order[0] : get().focusedId,
          maximizedId: get().maximizedId === event.id ? undefined : get().maximizedId,
        });
        break;
      }
      case 'configChanged':
        set({ configIssues: event.issues });
        break;
      case 'processSelected':
        set({ focusedId: event.id });
        break;
      case 'trustChanged': {
        const wasWaiting = new Set(get().trust?.pending.map((r) => r.key));
        const hasNewRequest = event.trust.pending.some((r) => !wasWaiting.has(r.key));
        set({ trust: event.trust, trustPrompt: hasNewRequest ? freshPrompt() : get().trustPrompt });
        break;
      }
      default:
        break;
    }
  },
  focus(id) {
    set({ focusedId: id });
  },
  toggleMaximize(id) {
    set({ maximizedId: get().maximizedId === id ? undefined : id, focusedId: id });
  },
  setError(message) {
    set({ error: message });
  },
  updateView(patch) {
    set({ view: { ...get().view, ...patch } });
    const { client } = get();
    if (!client) return;
    if (pendingView && pendingView.client !== client) saveViewNow();
    pendingView = { client, patch: { ...pendingView?.patch, ...patch } };
    window.clearTimeout(viewSaveTimer);
    viewSaveTimer = window.setTimeout(saveViewNow, VIEW_SAVE_DELAY_MS);
  },
  openTrustPrompt(prompt) {
    set({ trustPrompt: freshPrompt(prompt) });
  },
  closeTrustPrompt() {
    set({ trustPrompt: undefined });
  },
  setOverlay(overlay) {
    set({ overlay });
  },
  setScreenReaderMode(on) {
    try {
      localStorage.setItem(SCREEN_READER_KEY, on ? 'on' : 'off');
    } catch {
      // Storage refused (private window): the setting lasts for this page only.
    }
    set({ screenReaderMode: on });
  },
}));

/** Run a command and surface its error in the UI instead of throwing into React. */
export async function run<T>(action: (client: ControlClient) => Promise<T>): Promise<T | undefined> {
  const { client, setError } = useUi.getState();
  if (!client) {
    setError('Not connected to Switchboard yet: nothing was sent. Try again in a moment.');
    return undefined;
  }
  try {
    return await action(client);
  } catch (err) {
    setError(err instanceof Error ? err.message : String(err));
    return undefined;
  }
}
