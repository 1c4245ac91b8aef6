import { GlyphLabel } from '../common/GlyphLabel';
import { useEffect, useRef, useState } from 'react';
import { useUi } from '../app/store';
import { panes, type SearchResults } from './terminalPane';

/** Find in one pane's terminal: next/previous, case and regex toggles, the match count. */
export function FindBar({ id }: { id: string }) {
  const [text, setText] = useState('');
  const [caseSensitive, setCaseSensitive] = useState(false);
  const [regex, setRegex] = useState(false);
  const [results, setResults] = useState<SearchResults | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => input.current?.focus(), []);
  useEffect(() => {
    const subscription = panes.get(id)?.onFindResults(setResults);
    return () => {
      subscription?.dispose();
      panes.get(id)?.clearFind();
    };
  }, [id]);

  const find = (direction: 'next' | 'previous', query = text, options = { caseSensitive, regex }) => {
    try {
      setProblem(undefined);
      const found = panes.get(id)?.find(query, options, direction) ?? false;
      if (!query) setResults(undefined);
      else if (!found) setResults({ index: -1, count: 0 });
    } catch (err) {
      setResults(undefined);
      setProblem(err instanceof Error ? err.message : String(err));
    }
  };
  // Typing searches from the start of the match (incremental), toggles search again.
  useEffect(() => find('next', text, { caseSensitive, regex }), [text, caseSensitive, regex]);
  const close = () => {
    useUi.setState({ findPaneId: undefined });
    panes.get(id)?.focus();
  };
  return (
    <div className="find-bar" role="search" data-testid="find-bar" onMouseDown={(e) => e.stopPropagation()}>
      <input
        ref={input}
        aria-label="Find in terminal"
        placeholder="Find"
        value={text}
        data-testid="find-input"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') find(e.shiftKey ? 'previous' : 'next');
          if (e.key === 'Escape') close();
        }}
      />
      <button aria-pressed={caseSensitive} title="Match case" data-testid="find-case" onClick={() => setCaseSensitive(!caseSensitive)}>
        <GlyphLabel glyph="Aa" label="Match case" />
      </button>
      <button
        aria-pressed={regex}
        aria-label="Regular expression"
        title="Regular expression"
        data-testid="find-regex"
        onClick={() => setRegex(!regex)}
      >
        .*
      </button>
      <span className="find-count" data-testid="find-count" aria-live="polite">
        {problem ?? describeResults(text, results)}
      </span>
      <button aria-label="Previous match" title="Previous match (Shift+Enter)" data-testid="find-previous" onClick={() => find('previous')}>
        ↑
      </button>
      <button aria-label="Next match" title="Next match (Enter)" data-testid="find-next" onClick={() => find('next')}>
        ↓
      </button>
      <button aria-label="Close find" title="Close (Escape)" data-testid="find-close" onClick={close}>
        ✕
      </button>
    </div>
  );
}

function describeResults(text: string, results: SearchResults | undefined): string {
  if (!text || !results) return '';
  if (results.count === 0) return 'no matches';
  if (results.count < 0) return 'many matches';
  return `${results.index + 1} of ${results.count}`;
}
