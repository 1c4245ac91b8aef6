import { useNow } from '../sharedClock';
import type { ProcessInfo } from '../../../shared/model';
import { openLink } from '../terminalPane';
import { TimerIndicator } from './TimerIndicator';

/** Seconds since `since`, re-rendered by the shared clock while `active`. */
function useElapsed(since: number | undefined, active: boolean): number | undefined {
  const now = useNow(active);
  return active && since ? Math.max(0, Math.floor((now - since) / 1000)) : undefined;
}

const STATE_GLYPHS: Record<string, string> = {
  stopped: '○',
  waiting: '⧗',
  starting: '◌',
  ready: '●',
  running: '●',
  unhealthy: '◑',
  completed: '✓',
  error: '✕',
};
/** `running` of a command that declares no readiness check: up, not known to serve anything. */
const UNCHECKED_RUNNING_GLYPH = '▶';
const AGENT_GLYPHS: Record<string, string> = { starting: '◌', idle: '○', active: '◐', waiting: '⚠', stuck: '⏸', dead: '✕' };

function stateLabel(p: ProcessInfo): { glyph: string; text: string; tone: string; title: string } {
  if (p.agent) {
    const detail = p.agent.detail ? ` · ${p.agent.detail.replace('_', ' ')}` : '';
    const title = p.agent.confidenceReason ? `${p.agent.reason} (low confidence: ${p.agent.confidenceReason})` : p.agent.reason;
    return { glyph: AGENT_GLYPHS[p.agent.primary] ?? '?', text: `${p.agent.primary}${detail}`, tone: p.agent.primary, title };
  }
  // The entry's state, not only its readiness: `waiting` and a blocked start come from its dependencies.
  const phase = p.state;
  const message = p.message;
  if (phase === 'waiting') return { glyph: STATE_GLYPHS.waiting, text: message, tone: 'dependencies', title: message };
  if (phase === 'running' && p.readiness?.expectsReadiness === false)
    return { glyph: UNCHECKED_RUNNING_GLYPH, text: 'running', tone: 'running', title: message };
  if (phase === 'completed')
    return { glyph: STATE_GLYPHS.completed, text: message.replace(/^Completed/, 'completed'), tone: 'completed', title: message };
  if (phase === 'unhealthy') return { glyph: STATE_GLYPHS.unhealthy, text: 'unhealthy', tone: 'unhealthy', title: message };
  return { glyph: STATE_GLYPHS[phase] ?? '?', text: phase, tone: phase, title: message };
}

export function StatusBadges({ process: p }: { process: ProcessInfo }) {
  const label = stateLabel(p);
  const elapsed = useElapsed(p.readiness?.since ?? p.startedAt, !p.agent && label.tone === 'starting');
  const links = [...new Set([...(p.ports?.sightings ?? []).map((s) => s.url), ...(p.readiness?.url ? [p.readiness.url] : [])])];
  return (
    <span className="badges">
      <span className={`state tone-${label.tone}`} title={label.title} data-testid="state">
        {label.glyph} {label.text}
        {elapsed !== undefined && <span className="elapsed"> {elapsed}s</span>}
      </span>
      {p.agent && (
        <span className={`health health-${p.agent.health}`} title={p.agent.reason} data-testid="health">
          {p.agent.health}
        </span>
      )}
      {p.session?.resumable && (
        <span className="resumable" title={`Conversation ${p.session.id} can continue: Resume`} data-testid="resumable">
          resumable
        </span>
      )}
      {p.agent?.verified === 'unverified' && (
        <span
          className="trust-mark"
          role="note"
          aria-label={`unverified preset: ${p.agent.preset} status detection was never run against the real CLI`}
          title={`The ${p.agent.preset} preset's status rules come from the CLI's docs and source; they were never run against the real CLI.`}
          data-testid="unverified"
        >
          unverified
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
          ❗
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
      {links.map((url) => (
        <a
          key={url}
          className="port-link"
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
