/**
 * The waiting agents of every open project and the answers that go to them: one path for the
 * inbox dialog and the phone view. An answer goes to the agent's project and carries the prompt's
 * fingerprint; the core refuses it (and types nothing) when the agent's screen no longer shows that prompt.
 */
import { useCallback, useEffect, useState } from 'react';
import type { BlockedAction, ProjectWaitingAgent, PromptChoice } from '../../../shared/inbox';
import type { TimerSummary } from '../../../shared/model';
import { useUi } from '../app/store';
import { errorText } from '../common/errorText';

/**
 * The waiting agents as the window sees them (the shown project's entries, every project's
 * attention count): when this changes, the list is asked for again.
 */
function useWaitingSignature(): string {
  return useUi(
    (s) =>
      s.order
        .map((id) => s.processes[id])
        .filter((p) => p?.agent?.primary === 'waiting')
        .map((p) => `${p.id}:${p.agent!.since}:${p.agent!.reason}:${armedContinueKey(p.timers)}`)
        .join('|') +
      '#' +
      (s.workspace?.projects ?? []).map((p) => `${p.id}:${p.needsAttention}`).join('|'),
  );
}

/** A blocked agent's armed continue as it shows in its row: armed, paused or gone is news for the list. */
function armedContinueKey(timers: readonly TimerSummary[] | undefined): string {
  const armed = timers?.find((t) => t.whenBlocked);
  return armed ? `${armed.id}/${armed.state}` : '';
}

export function useNowEverySecond(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

export interface WaitingAgents {
  /** Undefined until the core first answered. */
  agents: ProjectWaitingAgent[] | undefined;
  /** What the last answer did, or why it was refused (the core's words). */
  notice: string | undefined;
  answer: (agent: ProjectWaitingAgent, choice: PromptChoice, text?: string) => Promise<void>;
  /** A blocked agent's action, through the same core method as MCP resolve_blocked. */
  resolveBlocked: (agent: ProjectWaitingAgent, action: BlockedAction) => Promise<void>;
  /** Typed answers not sent yet, by agent id. */
  drafts: Readonly<Record<string, string>>;
  setDraft: (agentId: string, text: string) => void;
}

export function useWaitingAgents(): WaitingAgents {
  const client = useUi((s) => s.workspaceClient);
  const signature = useWaitingSignature();
  const [agents, setAgents] = useState<ProjectWaitingAgent[] | undefined>();
  const [notice, setNotice] = useState<string>();
  const [drafts, setDrafts] = useState<Record<string, string>>({});

  const refresh = useCallback(async () => {
    if (!client) return;
    try {
      setAgents((await client.workspace('listWaitingAcrossProjects', {})).agents);
    } catch (err) {
      setNotice(errorText(err));
    }
  }, [client]);

  useEffect(() => {
    void refresh();
  }, [refresh, signature]);

  const answer = async (agent: ProjectWaitingAgent, choice: PromptChoice, text?: string) => {
    if (!client || !agent.fingerprint) return;
    try {
      const args = { id: agent.id, fingerprint: agent.fingerprint, choice: choice.id, ...(text !== undefined && { text }) };
      await client.call('answerPrompt', args, agent.project.id);
      setNotice(text === undefined ? `${agent.name}: answered "${choice.label}".` : `${agent.name}: answered "${text}".`);
      if (text !== undefined) setDrafts(({ [agent.id]: _sent, ...rest }) => rest);
    } catch (err) {
      setNotice(errorText(err));
    }
    await refresh();
  };

  const resolveBlocked = async (agent: ProjectWaitingAgent, action: BlockedAction) => {
    if (!client) return;
    try {
      const result = await client.call('resolveBlocked', { id: agent.id, action }, agent.project.id);
      setNotice(`${agent.name}: ${result.done}.`);
    } catch (err) {
      setNotice(errorText(err));
    }
    await refresh();
  };

  const setDraft = (agentId: string, text: string) => setDrafts((all) => ({ ...all, [agentId]: text }));
  return { agents, notice, answer, resolveBlocked, drafts, setDraft };
}
