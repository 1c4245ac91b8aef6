/**
 * "Connect an agent": the MCP endpoint and ready-to-paste lines for agents started outside
 * Switchboard (agents it spawns are connected already). The token is masked on screen; the copy
 * buttons copy the full line.
 */
import { useState, type CSSProperties } from 'react';
import { useUi } from '../app/store';
import { connectCommands, MCP_TOKEN_ENV } from '../../../shared/mcp';

const LINE: CSSProperties = {
  margin: 0,
  padding: '4px 6px',
  background: 'var(--bg)',
  border: '1px solid var(--border)',
  borderRadius: 4,
  fontFamily: 'ui-monospace, monospace',
  fontSize: 11,
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-all',
};

export function ConnectPanel() {
  const mcp = useUi((s) => s.mcp);
  const [isTokenShown, setTokenShown] = useState(false);
  if (!mcp) return null;
  const commands = connectCommands(mcp.url, mcp.token);
  const mask = (text: string) => (isTokenShown ? text : text.split(mcp.token).join('•'.repeat(8)));
  // [label, line, test id]. Each CLI reads the token from $SWITCHBOARD_MCP_TOKEN when it connects:
  // no command's arguments and no config file hold it.
  const rows: Array<[string, string, string]> = [
    ['Claude Code', commands.claude, 'claude'],
    ['Codex', commands.codex, 'codex'],
    [`opencode (opencode.json; start opencode with $${MCP_TOKEN_ENV} set)`, commands.opencode, 'opencode'],
  ];
  return (
    <details className="connect-panel" data-testid="connect-panel" style={{ borderTop: '1px solid var(--border)', paddingTop: 6 }}>
      <summary style={{ cursor: 'pointer', color: 'var(--muted)' }}>Connect an agent</summary>
      <div style={{ display: 'flex', flexDirection: 'column', gap: 6, marginTop: 6 }}>
        <div>
          MCP endpoint: <code data-testid="connect-url">{mcp.url}</code>
        </div>
        <div style={{ color: 'var(--muted)', fontSize: 11 }}>
          Agents started here are connected already. For one started elsewhere, paste a line below.
        </div>
        {rows.map(([label, line, testId]) => (
          <div key={testId}>
            <div style={{ display: 'flex', alignItems: 'center', gap: 6, marginBottom: 2 }}>
              <span>{label}</span>
              <CopyButton text={line} testId={`copy-${testId}`} />
            </div>
            <pre style={LINE} data-testid={`connect-${testId}`}>
              {mask(line)}
            </pre>
          </div>
        ))}
        <label style={{ fontSize: 11, color: 'var(--muted)' }}>
          <input type="checkbox" checked={isTokenShown} onChange={(e) => setTokenShown(e.target.checked)} /> show token
        </label>
      </div>
    </details>
  );
}

function CopyButton({ text, testId }: { text: string; testId: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'), // no clipboard permission: the line is selectable once "show token" is on
    );
  };
  return (
    <button type="button" onClick={copy} data-testid={testId} title="Copy the full line, token included">
      {state === 'copied' ? 'copied' : state === 'failed' ? 'copy failed' : 'copy'}
    </button>
  );
}
