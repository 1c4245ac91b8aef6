/** A sandboxed entry's badge (what it may reach, on hover) and the count of connections its sandbox refused. */
import type { ProcessInfo } from '../../../shared/model';
import { useUi } from '../app/store';

export function SandboxBadge({ process: p }: { process: ProcessInfo }) {
  const sandbox = p.sandbox;
  if (!sandbox) return null;
  const reach = ['Switchboard (MCP, hooks)', ...sandbox.reach];
  const title = `Sandboxed. May reach: ${reach.join(', ')}. May write: ${sandbox.writable.join(', ') || 'nothing'}.`;
  const refused = sandbox.refused.map((r) => `${r.host}:${r.port} at ${new Date(r.at).toLocaleTimeString()}`);
  return (
    <>
      <span className="sandboxed" title={title} aria-label={title} data-testid="sandboxed">
        sandboxed
      </span>
      {sandbox.refusedCount > 0 && (
        <button
          type="button"
          className="sandbox-refused"
          title={`Connections refused (newest last):\n${refused.join('\n')}\nClick to allow one from the inbox.`}
          aria-label={`${sandbox.refusedCount} connections refused by the sandbox: open the inbox to allow one`}
          data-testid="sandbox-refused"
          onClick={(e) => {
            e.stopPropagation();
            useUi.getState().setOverlay({ kind: 'inbox' });
          }}
        >
          ⊘ {sandbox.refusedCount}
        </button>
      )}
    </>
  );
}
