/**
 * "New agent in a worktree…": a name (or a generated one), the base branch (the current one by
 * default), the agent preset and its first instructions; the core creates the worktree, sets it
 * up and starts the agent in it (`startAgentInWorktree`, the call MCP and the control API make).
 * A refusal shows in the dialog, with everything typed kept.
 */
import { useState } from 'react';
import { useUi } from '../app/store';
import { AGENT_PRESET_IDS } from '../../../shared/agentPresets';
import { refreshWorktrees, useWorktrees } from './worktrees';
import { OverlayDialog } from '../common/Overlay';

export function NewWorktreeAgent() {
  const currentBranch = useWorktrees((s) => s.list.find((w) => w.isMain)?.branch ?? '');
  const [name, setName] = useState('');
  const [base, setBase] = useState<string | undefined>(undefined);
  const [preset, setPreset] = useState<string>('claude');
  const [commandLine, setCommandLine] = useState('');
  const [instructions, setInstructions] = useState('');
  const [sandboxed, setSandboxed] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [isCreating, setCreating] = useState(false);
  const client = useUi((s) => s.client);

  const submit = async () => {
    if (!client) return setProblem('Not connected to Switchboard yet: nothing was sent.');
    setCreating(true);
    setProblem(undefined);
    const chosenBase = (base ?? currentBranch).trim();
    const line = commandLine.trim();
    try {
      const result = await client.call('startAgentInWorktree', {
        preset,
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(chosenBase ? { base: chosenBase } : {}),
        ...(line ? { argv: ['/bin/sh', '-c', line] } : {}),
        ...(instructions.trim() ? { instructions: instructions.trim() } : {}),
        ...(sandboxed ? { sandbox: true } : {}),
      });
      await refreshWorktrees();
      useUi.getState().setOverlay(undefined);
      useUi.getState().focus(result.agent.id);
      if (!result.setup.ok) useUi.getState().setError(result.setup.message ?? `Set-up of ${result.worktree.id} did not complete.`);
    } catch (err) {
      setProblem(err instanceof Error ? err.message : String(err));
    } finally {
      setCreating(false);
    }
  };

  return (
    <OverlayDialog label="New agent in a worktree" testId="new-worktree" className="worktree-dialog">
      <header className="overlay-header">
        <h2>New agent in a worktree</h2>
      </header>
      <form
        className="worktree-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label>
          Name
          <input
            data-testid="new-worktree-name"
            placeholder="generated (wt-1, wt-2, …)"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <label>
          Base branch
          <input data-testid="new-worktree-base" value={base ?? currentBranch} onChange={(e) => setBase(e.target.value)} />
        </label>
        <label>
          Agent
          <select data-testid="new-worktree-preset" value={preset} onChange={(e) => setPreset(e.target.value)}>
            {AGENT_PRESET_IDS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <label>
          Command
          <input
            data-testid="new-worktree-command"
            placeholder="the preset's (default)"
            value={commandLine}
            onChange={(e) => setCommandLine(e.target.value)}
          />
        </label>
        <label>
          First instructions
          <textarea
            data-testid="new-worktree-instructions"
            rows={4}
            placeholder="typed into the agent once the worktree is set up"
            value={instructions}
            onChange={(e) => setInstructions(e.target.value)}
          />
        </label>
        <label
          className="checkbox-row"
          title="The agent and everything it starts run in a sandbox: its worktree writable, the home folder hidden, no network but Switchboard and its model API (docs/sandbox.md)"
        >
          <input type="checkbox" data-testid="new-worktree-sandbox" checked={sandboxed} onChange={(e) => setSandboxed(e.target.checked)} />
          Sandboxed
          <span className="checkbox-hint">— writes only its worktree, no home folder, network only to Switchboard and its model API</span>
        </label>
        {problem && (
          <p className="form-problem" role="alert" data-testid="new-worktree-problem">
            {problem}
          </p>
        )}
        <div className="form-actions">
          <button type="button" onClick={() => useUi.getState().setOverlay(undefined)}>
            Cancel
          </button>
          <button type="submit" data-testid="new-worktree-submit" disabled={isCreating || !client}>
            {isCreating ? 'Creating…' : 'Create and start'}
          </button>
        </div>
      </form>
    </OverlayDialog>
  );
}
