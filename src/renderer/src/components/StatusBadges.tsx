import { useEffect, useState } from 'react';
import type { ProcessInfo } from '../../../shared/model';
import { openLink } from '../terminalPane';
import { TimerIndicator } from './TimerIndicator';

/** Seconds since `since`, re-rendered every second while `active`. */
function useElapsed(since: number | undefined, active: boolean): number | undefined {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [active]);
  return active && since ? Math.max(0, Math.floor((now - since) / 1000)) : undefined;
}

const STATE_GLYPHS: Record<string, string> = { stopped: '○', starting: '◌', ready: '●', running: '●', error: '✕' };
const AGENT_GLYPHS: Record<string, string> = { starting: '◌', idle: '○', active: '◐', waiting: '⚠', stuck: '⏸', dead: '✕' };

export function stateLabel(p: ProcessInfo): { glyph: string; text: string; tone: string; title: string } {
  if (p.agent) {
    const detail = p.agent.detail ? ` · ${p.agent.detail.replace('_', ' ')}` : '';
    return {
      glyph: AGENT_GLYPHS[p.agent.primary] ?? '?',
      text: `${p.agent.primary}${detail}`,
      tone: p.agent.primary,
      title: p.agent.reason,
    };
  }
  const phase = p.readiness?.phase ?? p.state;
  const message = p.readiness?.message ?? p.message;
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
      {p.attention && (
        <span className="attention" title={p.attention.reason}>
          ❗
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
