/** A sandboxed entry's badge (what it may reach, on hover) and the count of connections its sandbox refused. */
import type { ProcessInfo } from '../../../shared/model';

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
        <span
          className="sandbox-refused"
          role="note"
          title={`Connections refused (newest last):\n${refused.join('\n')}\nAllow one from the inbox.`}
          aria-label={`${sandbox.refusedCount} connections refused by the sandbox`}
          data-testid="sandbox-refused"
        >
          ⊘ {sandbox.refusedCount}
        </span>
      )}
    </>
  );
}
