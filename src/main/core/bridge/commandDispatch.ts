/** Validates a command's arguments against the shared schema and calls the core method. */
import { z } from 'zod';
import { CommandArgs, type CommandName } from '../../../shared/api';
import { InvalidArgumentError, formatZodIssues } from '../../../shared/errors';
import type { SwitchboardCore } from '../app';
import { APP_ACTOR } from '../timers';
import { blockedAgentsOf } from '../blocked';
import { budgetOf, projectUsageWithBudgets } from '../budget';
import { allowSandboxTarget } from '../sandbox';
import { usageWarningsOf } from '../usage';
import { DEFAULT_UNUSED_DAYS } from '../../../shared/worktree';

/** The core as the UI's commands see it: each command calls one of these. */
export type CommandCore = Pick<
  SwitchboardCore,
  | 'acknowledgeAttention'
  | 'answerPrompt'
  | 'cancelTask'
  | 'closeProcess'
  | 'decorationOf'
  | 'getTask'
  | 'grantScopes'
  | 'grantTrust'
  | 'listWaiting'
  | 'openInEditor'
  | 'proposeConfig'
  | 'renameProcess'
  | 'resizeProcess'
  | 'restartProcess'
  | 'resumeProcess'
  | 'selectProcess'
  | 'sendUserTurn'
  | 'snapshot'
  | 'spawnAgent'
  | 'spawnProcess'
  | 'startProcess'
  | 'startTask'
  | 'stopProcess'
  | 'timers'
  | 'trustAndStart'
  | 'uiState'
  | 'updateUiState'
  | 'worktrees'
  | 'services'
  | 'writeConfig'
  | 'writeInput'
>;

type Handlers = { [C in CommandName]?: (core: CommandCore, args: z.output<(typeof CommandArgs)[C]>) => unknown };

/** Commands that are the same for every client. Per-client ones (attach, ack) live in ControlClientSession. */
const SHARED_HANDLERS: Handlers = {
  getSnapshot: (core) => core.snapshot(),
  spawnProcess: (core, a) => core.spawnProcess(a),
  spawnAgent: (core, a) => core.spawnAgent(a),
  startProcess: (core, a) => core.startProcess(a.id),
  resumeProcess: (core, a) => core.resumeProcess(a.id),
  stopProcess: (core, a) => core.stopProcess(a.id, a.signal),
  restartProcess: (core, a) => core.restartProcess(a.id, a.signal),
  closeProcess: (core, a) => core.closeProcess(a.id),
  renameProcess: (core, a) => core.renameProcess(a.id, a.name),
  selectProcess: (core, a) => core.selectProcess(a.id),
  resizeProcess: (core, a) => core.resizeProcess(a.id, a.cols, a.rows),
  writeInput: (core, a) => core.writeInput(a.id, a.data),
  sendUserTurn: async (core, a) => {
    await core.sendUserTurn(a.id, a.text);
    return null;
  },
  acknowledgeAttention: (core, a) => core.acknowledgeAttention(a.id),
  allowSandboxHost: (core, a) => (allowSandboxTarget(core, a.id, a.host), null),
  listWaiting: (core) => ({ agents: core.listWaiting() }),
  answerPrompt: (core, a) => core.answerPrompt(a),
  resolveBlocked: (core, a) => blockedAgentsOf(core).resolve(a),
  setContinueAtReset: (core, a) => blockedAgentsOf(core).setContinueAtReset(a),
  setBudget: (core, a) => budgetOf(core).setBudget(a),
  budgetGoOnce: (core, a) => budgetOf(core).goOnce(a),
  // Usage: the same core method as MCP get_usage
  getUsage: (core) => projectUsageWithBudgets(core),
  dismissUsageWarning: (core, a) => usageWarningsOf(core).dismiss(a.id, a.window, a.resets_at),
  // Timers: the same TimerManager methods the MCP timer tools call
  listTimers: (core, a) => core.timers.list(APP_ACTOR, a.ownerId),
  setTimer: (core, a) => {
    const { ownerId, body, label } = a;
    const armed =
      a.kind === 'delay'
        ? core.timers.setDelay(APP_ACTOR, { seconds: a.seconds, body, label, ownerId })
        : core.timers.setIdle(APP_ACTOR, { kind: a.kind, watched: a.watched, maxWaitSeconds: a.maxWaitSeconds, body, label, ownerId });
    return armed.timer;
  },
  pauseTimer: (core, a) => core.timers.pause(APP_ACTOR, a.timerId),
  resumeTimer: (core, a) => core.timers.resume(APP_ACTOR, a.timerId),
  cancelTimer: (core, a) => core.timers.cancel(APP_ACTOR, a.timerId),
  fireTimerNow: (core, a) => core.timers.fireNow(APP_ACTOR, a.timerId),
  // Tasks: the same core methods the MCP task tools call
  startTask: (core, a) => core.startTask(a),
  getTask: (core, a) => core.getTask(a.id),
  cancelTask: (core, a) => core.cancelTask(a.id),
  proposeConfig: (core) => core.proposeConfig(),
  writeConfig: (core, a) => core.writeConfig(a.entries),
  grantTrust: (core, a) => core.grantTrust(a.keys),
  trustAndStart: (core, a) => core.trustAndStart(a.id),
  grantScopes: (core, a) => core.grantScopes(a.id, a.scopes),
  getUiState: (core) => core.uiState(),
  setUiState: (core, a) => core.updateUiState(a.patch),
  openInEditor: (core, a) => core.openInEditor(a),
  // Worktrees: the same WorktreeService methods the MCP worktree tools call
  createWorktree: (core, a) => core.worktrees.createWorktree(a),
  listWorktrees: (core) => core.worktrees.manager.overview(),
  worktreeDiff: (core, a) => core.worktrees.manager.diff(a.worktree),
  commitWorktree: async (core, a) => ({ commit: await core.worktrees.manager.commit(a.worktree, a.message) }),
  mergeWorktree: (core, a) => core.worktrees.manager.merge(a.worktree, a.strategy),
  removeWorktree: (core, a) => core.worktrees.manager.remove(a.worktree, a.force),
  pullRequestAvailability: (core, a) => core.worktrees.manager.pullRequestAvailability(a.worktree),
  openPullRequest: async (core, a) => ({ url: await core.worktrees.manager.openPullRequest(a.worktree) }),
  listStaleWorktrees: async (core, a) => ({ worktrees: await core.worktrees.manager.stale(a.unusedDays ?? DEFAULT_UNUSED_DAYS) }),
  askCommitMessage: (core, a) => core.worktrees.askCommitMessage(a.worktree),
  startAgentInWorktree: (core, a) => core.worktrees.startAgentInWorktree(a),
  startInWorktree: (core, a) => core.worktrees.startInstance(a),
};

export function parseCommandArgs<C extends CommandName>(cmd: C, raw: unknown): z.output<(typeof CommandArgs)[C]> {
  return parseArgsWith(CommandArgs[cmd], cmd, raw) as z.output<(typeof CommandArgs)[C]>;
}

/** Arguments checked against `schema`; every problem named by its path in one clear error. */
export function parseArgsWith(schema: z.ZodType, cmd: string, raw: unknown): unknown {
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) {
    const problems = formatZodIssues(parsed.error.issues, '(arguments)');
    throw new InvalidArgumentError(`Invalid arguments for ${cmd}: ${problems}`);
  }
  return parsed.data;
}

export function isCommandName(cmd: unknown): cmd is CommandName {
  return typeof cmd === 'string' && Object.prototype.hasOwnProperty.call(CommandArgs, cmd);
}

export async function dispatchSharedCommand(core: CommandCore, cmd: CommandName, args: unknown): Promise<unknown> {
  const handler = SHARED_HANDLERS[cmd] as ((core: CommandCore, args: unknown) => unknown) | undefined;
  if (!handler) throw new InvalidArgumentError(`Command ${cmd} is not available here`);
  return handler(core, args);
}
