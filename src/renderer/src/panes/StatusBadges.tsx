import { useNow } from '../common/sharedClock';
import type { ProcessInfo } from '../../../shared/model';
import { openLink } from '../terminal/terminalPane';
import { run } from '../app/store';
import { TimerIndicator } from '../timers/TimerIndicator';
import { UsageFigure } from '../usage/UsageFigure';
import { isAgentStoppedOnPurpose, stateLabel } from './stateLabel';
import { SandboxBadge } from './SandboxBadge';
import { BudgetBadge } from '../budget/BudgetBadge';

/** Seconds since `since`, re-rendered by the shared clock while `active`. */
function useElapsed(since: number | undefined, active: boolean): number | undefined {
  const now = useNow(active);
  return active && since ? Math.max(0, Math.floor((now - since) / 1000)) : undefined;
}

export function StatusBadges({ process: p }: { process: ProcessInfo }) {
  const label = stateLabel(p);
  const elapsed = useElapsed(p.readiness?.since ?? p.startedAt, !p.agent && label.tone === 'starting');
  // One link per address: a sighting and the readiness URL often differ only in a trailing slash.
  const links = [
    ...new Set([...(p.ports?.sightings ?? []).map((s) => s.url), ...(p.readiness?.url ? [p.readiness.url] : [])].map(normalUrl)),
  ];
  return (
    <span className="badges">
      <span className={`state tone-${label.tone}`} title={label.title} data-testid="state">
        {label.glyph} {label.text}
        {elapsed !== undefined && <span className="elapsed"> {elapsed}s</span>}
      </span>
      {p.idleStopped && p.state === 'stopped' && <IdleStart process={p} />}
      <SandboxBadge process={p} />
      {p.agent && !isAgentStoppedOnPurpose(p) && (
        <span className={`health health-${p.agent.health}`} title={p.agent.reason} data-testid="health">
          {p.agent.health}
        </span>
      )}
      {p.usage && <UsageFigure usage={p.usage} />}
      <BudgetBadge process={p} />
      {p.session?.resumable && (
        <span className="resumable" title={`Conversation ${p.session.id} can continue: Resume`} data-testid="resumable">
          resumable
        </span>
      )}
      {p.agent?.verified === 'unverified' && (
        <span
          className="trust-mark"
          role="note"
          aria-label={`unverified preset: ${p.agent.preset} status detection is not proven against the real CLI`}
          title={`The ${p.agent.preset} preset's status rules have not been proven against the real CLI's recorded sessions; this status may be late or wrong.`}
          data-testid="unverified"
        >
          unverified
        </span>
      )}
      {p.agent?.cliVersion && p.agent.verifiedVersion && p.agent.cliVersion !== p.agent.verifiedVersion && (
        <span
          className="trust-mark"
          role="note"
          aria-label={`version drift: running ${p.agent.cliVersion}, status rules verified on ${p.agent.verifiedVersion}`}
          title={`This CLI reports version ${p.agent.cliVersion}; the ${p.agent.preset} preset's status rules were verified on ${p.agent.verifiedVersion}. New dialogs may read as "unrecognised dialog".`}
          data-testid="version-drift"
        >
          v{p.agent.cliVersion}≠
        </span>
      )}
      {p.agent?.confidence === 'low' && (
        <span
          className="trust-mark"
          role="note"
          aria-label={`low confidence: ${p.agent.confidenceReason ?? 'no rule matched'}`}
          title={p.agent.confidenceReason}
          data-testid="low-confidence"
        >
          low confidence
        </span>
      )}
      {p.attention && (
        <span className="attention" role="img" aria-label={`needs attention: ${p.attention.reason}`} title={p.attention.reason}>
          !
        </span>
      )}
      {p.trust && (
        <span
          className="untrusted"
          data-testid="untrusted"
          title={
            p.trust === 'new'
              ? 'Not trusted yet: it runs nothing until you trust it'
              : 'Changed in switchboard.json: the change runs once you trust it'
          }
        >
          {p.trust === 'new' ? 'not trusted' : 'change not trusted'}
        </span>
      )}
      <TimerIndicator process={p} />
      {p.forwards
        ?.filter((f) => f.error)
        .map((f) => (
          <span key={f.hostPort} className="forward-error" data-testid="forward-error" title={f.error}>
            port {f.hostPort} not forwarded
          </span>
        ))}
      {links.map((url) => (
        <a
          key={url}
          className="port-link"
          data-testid="port-link"
          title={forwardedFrom(p, url)}
          href={url}
          onClick={(e) => {
            e.preventDefault();
            openLink(url);
          }}
        >
          {url.replace(/^https?:\/\//, '')}
        </a>
      ))}
    </span>
  );
}

/**
 * Start again a server its worktree's idle stop stopped: the control API's startProcess, the core
 * method MCP start_process calls, so the browser UI of `serve` does the same.
 */
function IdleStart({ process: p }: { process: ProcessInfo }) {
  return (
    <button
      type="button"
      className="idle-start"
      data-testid="idle-start"
      aria-label={`Start ${p.name}`}
      title={p.message}
      onClick={(e) => {
        e.stopPropagation(); // a row's click focuses its pane; this one only starts
        void run((c) => c.call('startProcess', { id: p.id }));
      }}
    >
      Start
    </button>
  );
}

/** A remote entry's link names the host's port it reaches (the URL itself is this machine's forward). */
function forwardedFrom(p: ProcessInfo, url: string): string | undefined {
  if (!p.forwards) return undefined;
  const port = Number(/^https?:\/\/[^/]*:(\d+)/.exec(url)?.[1]);
  const forward = p.forwards.find((f) => f.localPort === port);
  return forward && p.host ? `${p.host}'s port ${forward.hostPort}, forwarded to this machine` : undefined;
}

function normalUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}
