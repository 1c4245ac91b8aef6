/**
 * User turns typed into agents: the one path for agent instructions, send_message, timer delivery
 * and inbox answers (sessions/userTurn.ts does the typing). A turn waits for the agent's prompt,
 * and an Enter the CLI dropped is pressed once more.
 */
import { waitForEvent, type ServiceRegistry } from '../base';
import { AGENT_STATUS, promptAnswersFor, type AgentStatusDecoration } from '../agents';
import {
  DEFAULT_SUBMIT_AFTER_ECHO_MS,
  DeliveryHeldError,
  TURN_GATE,
  isTextOnScreen,
  typeUserTurn,
  waitForScreen,
  type DecorationKey,
  type ProcessEntry,
} from '../sessions';
import { InvalidArgumentError, NotRunningError, SwitchboardError } from '../../../shared/errors';
import type { AnswerPromptArgs, AnswerPromptResult, WaitingAgent } from '../../../shared/inbox';
import type { ProcessInfo } from '../../../shared/model';
import { answerPrompt, listWaiting, type InboxAgent } from './inbox';

/** How long a fresh agent has to show its prompt before its instructions are given up. */
const INSTRUCTIONS_READY_TIMEOUT_MS = 60_000;
/** How long an idle agent has to show that it took a turn (a prompt-submit hook or its busy screen) before Enter is pressed once more. */
const SUBMIT_CONFIRM_MS = 5_000;

/** What agent turns need of the core (SwitchboardCore is one). */
interface AgentTurnHost {
  entry(id: string): ProcessEntry;
  entries(): ProcessEntry[];
  describe(id: string): ProcessInfo;
  decorationOf(id: string, key: DecorationKey<AgentStatusDecoration>): AgentStatusDecoration | undefined;
  /** Whether the entry still exists in a core that is not shutting down. */
  isOpen(id: string): boolean;
  requestAttention(id: string, reason: string, requestedBy: string): unknown;
  readonly services: ServiceRegistry;
}

export class AgentTurns {
  constructor(
    private readonly host: AgentTurnHost,
    private readonly instructionsReadyTimeoutMs = INSTRUCTIONS_READY_TIMEOUT_MS,
  ) {}

  /** The status of an agent entry, or a clear error for other kinds. */
  statusOf(id: string): AgentStatusDecoration {
    const agent = this.host.decorationOf(id, AGENT_STATUS);
    if (!agent) throw new InvalidArgumentError(`Process ${id} is not an agent`);
    return agent;
  }

  /**
   * Types the instructions once the agent is idle, in the background. An agent that never shows
   * its prompt (a trust dialog, a login) must not end the process with an unhandled rejection:
   * the person is asked to look instead, since the instructions were not delivered.
   */
  deliverInstructions(id: string, text: string): void {
    const timeoutMs = this.instructionsReadyTimeoutMs;
    this.untilAdmitted(id, 'its instructions')
      .then(() => this.typeWhenIdle(id, text, timeoutMs))
      .catch((err: unknown) => {
        if (!this.host.isOpen(id)) return;
        const why = err instanceof Error ? err.message : String(err);
        this.host.requestAttention(
          id,
          `The agent did not show its prompt within ${Math.round(timeoutMs / 1000)} s; its instructions were not typed (${why})`,
          'switchboard',
        );
      });
  }

  /**
   * A turn Switchboard sends on its own behalf (a message from another agent, a worktree's
   * request): the turn gate (the budget) may hold it, and the caller hears why and how to go on.
   */
  async sendAutomatedTurn(id: string, text: string, what: string): Promise<void> {
    const hold = this.host.services.find(TURN_GATE)?.admit(id, what);
    if (hold) throw new DeliveryHeldError(hold);
    await this.sendUserTurn(id, text);
  }

  /** Waits, counted as held, while the turn gate holds what goes to the agent; a closed agent ends the wait. */
  private async untilAdmitted(id: string, what: string): Promise<void> {
    const gate = this.host.services.find(TURN_GATE);
    if (!gate?.admit(id, what)) return;
    gate.waiting(id, 1);
    try {
      do await waitForEvent(gate.onDidChange, (changed) => changed === id);
      while (this.host.isOpen(id) && gate.admit(id, what));
    } finally {
      gate.waiting(id, -1);
    }
  }

  /** Type `text` as a fresh user turn once the agent is idle at its prompt. */
  async typeWhenIdle(id: string, text: string, timeoutMs = INSTRUCTIONS_READY_TIMEOUT_MS): Promise<void> {
    const { tracker } = this.statusOf(id);
    if (tracker.status.primary !== 'idle') {
      await waitForEvent(tracker.onDidChangeStatus, (s) => s.primary === 'idle' || s.primary === 'dead', timeoutMs);
    }
    if (tracker.status.primary !== 'idle') throw new Error(`the agent is ${tracker.status.primary}`);
    await this.sendUserTurn(id, text);
  }

  /** Types `text` into an entry as a fresh user turn (any kind; agents get the waits below). */
  async sendUserTurn(id: string, text: string): Promise<void> {
    await this.untilPromptShown(id);
    const agent = this.host.decorationOf(id, AGENT_STATUS);
    const mayPressAgain = agent !== undefined && agent.preset.id !== 'generic' && agent.tracker.status.primary === 'idle';
    await typeUserTurn(this.host.entry(id), text, this.submitAfterEchoMs(id));
    if (mayPressAgain) await this.pressEnterAgainIfNotTaken(id, agent.tracker, text);
  }

  /** How long Enter waits after the echo of typed text: the agent preset's pause, the default for anything else. */
  submitAfterEchoMs(id: string): number {
    return this.host.decorationOf(id, AGENT_STATUS)?.preset.submitAfterEchoMs ?? DEFAULT_SUBMIT_AFTER_ECHO_MS;
  }

  /** The attention inbox: every waiting agent with what it asks, the one waiting longest first. */
  listWaiting(): WaitingAgent[] {
    const agents = this.host
      .entries()
      .filter((e) => e.kind === 'agent')
      .map((e) => this.inboxAgent(e.id));
    return listWaiting(agents);
  }

  /** Answer an agent's prompt from the inbox: sent only while the same prompt is on its screen. */
  answerPrompt(args: AnswerPromptArgs): Promise<AnswerPromptResult> {
    const entry = this.host.entry(args.id);
    if (!entry.isRunning) throw new NotRunningError(entry.id, entry.name);
    return answerPrompt(this.inboxAgent(args.id), args);
  }

  /**
   * A TUI now and then drops the Enter of a turn: the text stays in its composer and nothing is
   * sent (seen with Gemini CLI under load). An agent that was idle and has not left idle within
   * SUBMIT_CONFIRM_MS while its screen still shows the text gets Enter once more, as a person
   * would press it again; Enter on an empty composer does nothing in the preset CLIs.
   */
  private async pressEnterAgainIfNotTaken(id: string, tracker: AgentStatusDecoration['tracker'], text: string): Promise<void> {
    const entry = this.host.entry(id);
    const tookTurn = await waitForEvent(tracker.onDidChangeStatus, (s) => s.primary !== 'idle', SUBMIT_CONFIRM_MS).then(
      () => true,
      () => tracker.status.primary !== 'idle',
    );
    if (tookTurn || !entry.isRunning || !isTextOnScreen(entry, text)) return;
    entry.write('\r');
  }

  /**
   * An agent still `starting` has no prompt to type into (opencode paints blank cells for many
   * seconds, and what is typed there is lost): a user turn waits until the CLI has drawn a screen
   * its rules know. A busy or waiting agent takes the turn (its CLI queues it).
   */
  private async untilPromptShown(id: string, timeoutMs = INSTRUCTIONS_READY_TIMEOUT_MS): Promise<void> {
    const agent = this.host.decorationOf(id, AGENT_STATUS);
    if (!agent || agent.tracker.status.primary !== 'starting') return;
    const { tracker } = agent;
    await waitForEvent(tracker.onDidChangeStatus, (s) => s.primary !== 'starting', timeoutMs).catch(() => undefined);
    if (tracker.status.primary === 'starting') {
      const entry = this.host.entry(id);
      throw new SwitchboardError(
        'timeout',
        `Agent "${entry.name}" (${id}) has not shown its prompt within ${Math.round(timeoutMs / 1000)} s (${tracker.status.reason}); nothing was typed.`,
      );
    }
  }

  private inboxAgent(id: string): InboxAgent {
    const { host } = this;
    const entry = host.entry(id);
    const { tracker, preset } = this.statusOf(id);
    return {
      id,
      name: entry.name,
      preset: preset.id,
      rules: preset.rules,
      answers: promptAnswersFor(preset.id),
      status: tracker.status,
      // Read only for a blocked row: describing an entry is not free, and most agents are not waiting.
      get timers() {
        return host.describe(id).timers ?? [];
      },
      screen: entry.screen,
      write: (data) => entry.write(data),
      typeTurn: (text) => this.sendUserTurn(id, text),
      waitForScreen: (test, maxMs) => waitForScreen(entry, test, maxMs),
    };
  }
}
