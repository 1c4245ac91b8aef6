/**
 * Applies the pattern table to one line: which entries match, which one decides what the line
 * means (ready, error, port moved) after the guards had their say, and what it tells about where
 * the server listens. Keeps the little state a line's meaning depends on: whether it sits inside
 * a multi-line warning block.
 */
import type { FrameworkId } from '../../../shared/ready';
import type { FrameworkPattern, PatternKind } from './patternTypes';
import { hostToShow, isValidPort, portOfUrl } from '../ports';

/** Lines longer than this are cut before matching: regex cost grows with length, meaning does not. */
const MAX_CLASSIFIED_LINE_CHARS = 1_000;
/** A warning block without a blank line ends after this many lines anyway. */
const MAX_WARNING_BLOCK_LINES = 30;

export interface LineMatch {
  pattern: FrameworkPattern;
  groups: Readonly<Record<string, string | undefined>>;
}

/** Where the server can be reached, as a line says it. */
export interface PlaceHint {
  port: number;
  url: string;
  patternId: string;
  /** The line printed an http(s) URL for it (not a bare port or a tcp:// address). */
  isHttpUrl?: boolean;
  /** A framework's own line (its ready line follows and decides), not a generic one. */
  isFrameworkOwn?: boolean;
}

export interface Classification {
  text: string;
  /** Every entry that matched, before guards (for `reason` and tests). */
  matches: LineMatch[];
  /** The match that decides what the line means: a ready, building, error or portMoved entry. */
  decisive?: LineMatch;
  places: PlaceHint[];
  /** The line counts as a warning (its own guard, or inside a warning block). */
  isWarning: boolean;
}

const DECIDING_KINDS: ReadonlySet<PatternKind> = new Set(['ready', 'building', 'error', 'portMoved']);

export class LineClassifier {
  private readonly allPatterns: readonly FrameworkPattern[];
  private patterns: readonly FrameworkPattern[];
  private warningBlock: { priority: number; linesLeft: number } | undefined;

  constructor(patterns: readonly FrameworkPattern[], framework: FrameworkId = 'generic') {
    // Highest priority first; the sort is stable, so ties keep table order.
    this.allPatterns = [...patterns].sort((a, b) => b.priority - a.priority);
    this.patterns = this.allPatterns;
    this.setFramework(framework);
  }

  /** Entries this classifier knows (before the framework filter). */
  get patternCount(): number {
    return this.allPatterns.length;
  }

  /** The detected framework: entries marked `onlyWhenDetected` apply only to their own. */
  setFramework(framework: FrameworkId): void {
    this.patterns = this.allPatterns.filter((p) => !p.onlyWhenDetected || p.framework === framework);
  }

  /** A new run: forget the block state of the old one. */
  reset(): void {
    this.warningBlock = undefined;
  }

  /** `isPartial`: a line still being written (a prompt); it does not advance the block state. */
  classify(rawText: string, options: { isPartial?: boolean } = {}): Classification {
    const text = rawText.length > MAX_CLASSIFIED_LINE_CHARS ? rawText.slice(0, MAX_CLASSIFIED_LINE_CHARS) : rawText;
    if (text.trim().length === 0) {
      if (!options.isPartial) this.warningBlock = undefined; // a blank line ends a warning block
      return { text, matches: [], places: [], isWarning: false };
    }
    const matches: LineMatch[] = [];
    for (const pattern of this.patterns) {
      const m = pattern.regex.exec(text);
      if (m) matches.push({ pattern, groups: { ...(m.groups ?? {}) } });
    }

    const guard = matches.find((m) => m.pattern.kind === 'warning-guard');
    const blockPriority = this.warningBlock?.priority;
    const warningPriority = Math.max(guard?.pattern.priority ?? -Infinity, blockPriority ?? -Infinity);
    const isReadyGuarded = matches.some((m) => m.pattern.kind === 'ready-guard');
    // A framework's own entry says this line is only a URL ("Project is running at …" before the
    // first compile): the generic "listening on …" heuristic does not get to call it ready.
    const isUrlOnlyLine = matches.some((m) => m.pattern.kind === 'url' && m.pattern.framework !== 'generic');

    const decisive = matches.find((m) => {
      const { kind, priority } = m.pattern;
      if (!DECIDING_KINDS.has(kind)) return false;
      if (kind === 'ready' && isReadyGuarded) return false;
      if (kind === 'ready' && isUrlOnlyLine && m.pattern.framework === 'generic') return false;
      if (kind === 'error' && priority < warningPriority) return false;
      return true;
    });

    if (!options.isPartial) this.advanceWarningBlock(guard);
    return {
      text,
      matches,
      decisive,
      places: placesOf(matches, decisive),
      isWarning: warningPriority > -Infinity,
    };
  }

  private advanceWarningBlock(guard: LineMatch | undefined): void {
    if (guard?.pattern.guardsBlock) {
      this.warningBlock = { priority: guard.pattern.priority, linesLeft: MAX_WARNING_BLOCK_LINES };
      return;
    }
    if (!this.warningBlock) return;
    this.warningBlock.linesLeft -= 1;
    if (this.warningBlock.linesLeft <= 0) this.warningBlock = undefined;
  }
}

/** Places from url entries, the deciding ready entry and a portMoved entry's `to`. */
function placesOf(matches: LineMatch[], decisive: LineMatch | undefined): PlaceHint[] {
  const sources = matches.filter((m) => m.pattern.kind === 'url');
  if (decisive && decisive.pattern.kind !== 'error' && decisive.pattern.kind !== 'building') sources.unshift(decisive);
  const places: PlaceHint[] = [];
  for (const { pattern, groups } of sources) {
    const port = pattern.kind === 'portMoved' ? groups.to : (groups.port ?? groups.hostPort ?? groups.barePort);
    const found = toPlace(groups.url, port, pattern.id);
    const place = found && pattern.framework !== 'generic' ? { ...found, isFrameworkOwn: true } : found;
    if (place && !places.some((p) => p.url === place.url)) places.push(place);
  }
  return places;
}

function toPlace(rawUrl: string | undefined, rawPort: string | undefined, patternId: string): PlaceHint | undefined {
  if (rawUrl) {
    const normalized = rawUrl
      .replace(/^tcp:\/\//, 'http://')
      .replace(/^ssl:\/\//, 'https://')
      .replace(/[.,;)\]]+$/, '');
    try {
      const parsed = new URL(normalized);
      parsed.hostname = hostToShow(parsed.hostname);
      return { port: portOfUrl(parsed), url: parsed.toString(), patternId, isHttpUrl: /^https?:\/\//i.test(rawUrl) };
    } catch {
      // Not a URL after all: fall through to the port, if any.
    }
  }
  const port = Number(rawPort);
  if (isValidPort(port)) return { port, url: `http://localhost:${port}/`, patternId };
  return undefined;
}
