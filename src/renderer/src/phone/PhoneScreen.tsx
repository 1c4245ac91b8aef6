/**
 * One entry's screen at phone width: the terminal as the program draws it (read-only, at the
 * program's own size, scrolled sideways; a phone never resizes the PTY under a desktop's pane)
 * and a reply box that types a turn and submits it, as a person at the keyboard would.
 */
import { useEffect, useRef, useState } from 'react';
import type { ProcessInfo } from '../../../shared/model';
import { useUi } from '../app/store';
import { errorText } from '../common/errorText';
import { panes, TerminalPane } from '../terminal/terminalPane';
import { stateLabel } from '../panes/stateLabel';
import { currentThemeName } from '../terminal/themeController';

interface PhoneScreenProps {
  process: ProcessInfo;
  onBack: () => void;
}

export function PhoneScreen({ process: p, onBack }: PhoneScreenProps) {
  const label = stateLabel(p);
  return (
    <main className="phone phone-screen" data-testid="phone-screen" data-name={p.name}>
      <header className="phone-header">
        <button className="phone-back" data-testid="phone-back" onClick={onBack}>
          ‹ Back
        </button>
        <h1>{p.name}</h1>
        <span className={`state tone-${label.tone}`} title={label.title} data-testid="state">
          <span aria-hidden="true">{label.glyph}</span> {label.text}
        </span>
      </header>
      <ReadOnlyTerminal id={p.id} name={p.name} />
      <ReplyBox process={p} />
    </main>
  );
}

function ReadOnlyTerminal({ id, name }: { id: string; name: string }) {
  const container = useRef<HTMLDivElement>(null);
  const client = useUi((s) => s.client);
  const fontSize = useUi((s) => s.view.fontSize);
  useEffect(() => {
    if (!client || !container.current) return;
    const pane = new TerminalPane(id, client, { fontSize, theme: currentThemeName(), copyOnSelect: () => false, readOnly: true });
    panes.set(id, pane);
    void pane.mount(container.current);
    return () => {
      if (panes.get(id) === pane) panes.delete(id);
      pane.dispose();
    };
    // The font size of the moment it opens (the phone has no zoom controls); the theme controller restyles open panes.
  }, [id, client]);
  return (
    <div className="phone-terminal" role="region" aria-label={`Screen of ${name} (read-only)`} tabIndex={0}>
      <div ref={container} className="phone-terminal-host" data-testid="phone-terminal" />
    </div>
  );
}

function ReplyBox({ process: p }: { process: ProcessInfo }) {
  const client = useUi((s) => s.client);
  const [text, setText] = useState('');
  const [notice, setNotice] = useState<string>();
  const isRunning = p.pid !== undefined && p.state !== 'stopped';
  const send = async () => {
    if (!client || !text.trim()) return;
    try {
      await client.call('sendUserTurn', { id: p.id, text });
      setNotice(`Sent to ${p.name}.`);
      setText('');
    } catch (err) {
      setNotice(errorText(err));
    }
  };
  return (
    <form
      className="phone-reply"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <input
        data-testid="phone-reply-text"
        aria-label={`Reply to ${p.name}`}
        placeholder={isRunning ? 'Type a reply…' : 'Not running'}
        disabled={!isRunning}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" data-testid="phone-reply-send" disabled={!isRunning || !text.trim()}>
        Send
      </button>
      <div role="status" aria-live="polite" className="phone-notice" data-testid="phone-reply-notice">
        {notice}
      </div>
    </form>
  );
}
