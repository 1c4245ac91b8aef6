import { MCP_SCOPES, type McpScope } from '../../../shared/trust';
import type { ProcessInfo } from '../../../shared/model';
import { run } from '../app/store';

const SCOPE_HELP: Record<McpScope, string> = {
  'entries:read-all': 'read the output of every entry',
  'entries:input-all': 'type into every entry and message every agent',
  'entries:control-all': 'start, stop, restart, rename and close every entry',
  'tasks:bypass-permissions': 'start headless tasks that bypass permission prompts',
  'worktrees:manage-all': 'merge and remove worktrees others created',
};

/** Entries whose MCP token can carry scopes: agents, tasks, and entries the config gave a token. */
function hasScopes(p: ProcessInfo): boolean {
  return p.kind === 'agent' || p.kind === 'task' || p.access !== undefined;
}

/** The header button that shows how many scopes the entry's token has and opens the panel. */
export function ScopeButton({ process: p, isOpen, onToggle }: { process: ProcessInfo; isOpen: boolean; onToggle: () => void }) {
  if (!hasScopes(p)) return null;
  return (
    <button
      className="scope-button"
      data-testid="scope-button"
      aria-expanded={isOpen}
      onClick={onToggle}
      title="What this entry's MCP token may do beyond its own entry and what it spawned"
    >
      scopes {p.access?.scopes.length ?? 0}
    </button>
  );
}

/**
 * Scopes of the entry's MCP token. A person grants one here for as long as the entry exists;
 * "mcp": {"scopes": [...]} in switchboard.json grants for good.
 */
export function ScopePanel({ process: p }: { process: ProcessInfo }) {
  const scopes = p.access?.scopes ?? [];
  const grant = (scope: McpScope) => void run((c) => c.call('grantScopes', { id: p.id, scopes: [scope] }));
  return (
    <div className="scope-panel" data-testid="scope-panel">
      <div className="scope-help">
        By default this token reads, types into and controls only its own entry and what it spawned. A grant lasts until the entry closes.
      </div>
      <ul>
        {MCP_SCOPES.map((scope) => (
          <li key={scope}>
            <label>
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                disabled={scopes.includes(scope)}
                onChange={() => grant(scope)}
                data-scope={scope}
              />{' '}
              <code>{scope}</code> <span className="scope-help">{SCOPE_HELP[scope]}</span>
            </label>
          </li>
        ))}
      </ul>
    </div>
  );
}
