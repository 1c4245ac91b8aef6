/**
 * Turns error lines into the one sentence a person needs. Errors rarely fit on one line: Vite
 * prints "error when starting dev server:" and the cause below it, Python ends a traceback with
 * the exception, Node ends a crash with "Node.js v20…" after the error. The rules:
 * - a headline entry with `detail` takes the next informative line (or the traceback's exception);
 *   if that line is itself a known error, its message wins ("Port 5173 already in use");
 * - otherwise a later error replaces the message when its priority is at least as high.
 */
import type { DetailSource } from './patternTypes';
import type { Classification, LineMatch } from './lineClassifier';
import { clampMessage, renderTemplate } from './messageTemplate';
import { FRAMEWORK_NAMES } from './frameworkPatterns';

/** "TypeError: boom", "Error: Cannot find module 'x'", "django.core.exceptions.ImproperlyConfigured: …" */
const EXCEPTION_HEADLINE =
  /^\s*(?:Uncaught\s+)?(?:[A-Za-z_][\w.]*\.)?(?:[A-Z]\w*)?(?:Error|Exception|Configured|Interrupt)(?:\s*\[\w+\])?:\s+\S.*$/;
/** Chained-traceback separators and the header itself are not the final exception line. */
const TRACEBACK_NOISE =
  /^(?:Traceback \(most recent call last\):|During handling of the above exception|The above exception was the direct cause)/;
/** A detail line needs words; "*****" banners and "Description:" headings are skipped. */
const HAS_WORDS = /[A-Za-z]{3,}/;
const HEADING_ONLY = /^\s*[\w ]{1,30}:\s*$/;
/** A headline whose detail never comes is left as it is after this many lines. */
const MAX_DETAIL_WAIT_LINES: Readonly<Record<DetailSource, number>> = { nextLine: 6, exceptionLine: 400 };

export interface ErrorReport {
  message: string;
  /** "pattern vite-start-failed + detail", for `reason`. */
  reason: string;
  patternId: string;
}

interface MessageContext {
  /** Display name for `{framework}` when the entry is generic ("Vite", or "Server"). */
  frameworkName: string;
  knownPort?: number;
  knownUrl?: string;
}

interface PendingDetail {
  match: LineMatch;
  source: DetailSource;
  linesLeft: number;
}

export class ErrorMessageComposer {
  private current: { message: string; priority: number; patternId: string } | undefined;
  private pending: PendingDetail | undefined;
  private lastException: string | undefined;

  /** A new run: nothing of the old one may leak into its messages. */
  reset(): void {
    this.current = undefined;
    this.pending = undefined;
    this.lastException = undefined;
  }

  /** The server became ready again: earlier errors are history, not `{previous}`. */
  clearCurrent(): void {
    this.current = undefined;
    this.pending = undefined;
  }

  /** A headline was printed and its cause has not arrived yet. */
  get isAwaitingDetail(): boolean {
    return this.pending !== undefined;
  }

  get currentMessage(): string | undefined {
    return this.current?.message;
  }

  /** Feed every classified line; returns a report when the error message is new or changed. */
  observe(line: Classification, context: MessageContext): ErrorReport | undefined {
    const text = line.text;
    if (text.trim().length === 0) return undefined;
    const decisiveError = line.decisive?.pattern.kind === 'error' ? line.decisive : undefined;

    const wasAwaitingDetail = this.pending !== undefined;
    if (this.pending) {
      const report = this.completePending(this.pending, text, decisiveError, context);
      if (report) {
        this.rememberException(text);
        return report;
      }
    }
    this.rememberException(text);
    if (!decisiveError) return undefined;

    const { priority } = decisiveError.pattern;
    const isFollowUp = wasAwaitingDetail && this.pending === undefined;
    if (this.current && !isFollowUp && priority < this.current.priority) return undefined;
    const message = this.render(decisiveError, context, undefined, text);
    const reason =
      isFollowUp && this.current
        ? `pattern ${decisiveError.pattern.id} (after ${this.current.patternId})`
        : `pattern ${decisiveError.pattern.id}`;
    this.current = {
      message,
      priority: isFollowUp && this.current ? Math.max(priority, this.current.priority) : priority,
      patternId: decisiveError.pattern.id,
    };
    if (decisiveError.pattern.detail) {
      this.pending = {
        match: decisiveError,
        source: decisiveError.pattern.detail,
        linesLeft: MAX_DETAIL_WAIT_LINES[decisiveError.pattern.detail],
      };
    }
    return { message, reason, patternId: decisiveError.pattern.id };
  }

  /**
   * With a headline waiting: a known error line ends the wait (the caller then treats it as the
   * follow-up); an informative line completes the headline.
   */
  private completePending(
    pending: PendingDetail,
    text: string,
    decisiveError: LineMatch | undefined,
    context: MessageContext,
  ): ErrorReport | undefined {
    if (decisiveError && decisiveError.pattern.id !== 'generic-python-traceback') {
      this.pending = undefined;
      return undefined;
    }
    if (decisiveError) {
      // A chained traceback: the exception that counts is the one after the last header.
      pending.linesLeft = MAX_DETAIL_WAIT_LINES.exceptionLine;
      return undefined;
    }
    pending.linesLeft -= 1;
    if (pending.linesLeft <= 0) this.pending = undefined;
    const detail = pending.source === 'nextLine' ? asNextLineDetail(text) : asExceptionLine(text);
    if (detail === undefined) return undefined;
    this.pending = undefined;
    const message = this.render(pending.match, context, detail, text);
    if (this.current) this.current.message = message;
    return { message, reason: `pattern ${pending.match.pattern.id} + detail`, patternId: pending.match.pattern.id };
  }

  private render(match: LineMatch, context: MessageContext, detail: string | undefined, line: string): string {
    const { pattern, groups } = match;
    const values = {
      ...groups,
      framework: pattern.framework === 'generic' ? context.frameworkName : FRAMEWORK_NAMES[pattern.framework],
      line,
      port: groups.port ?? context.knownPort,
      url: groups.url ?? context.knownUrl,
      detail: detail ?? groups.detail,
      previous: this.current?.message,
      lastException: this.lastException,
    };
    const rendered = pattern.message ? renderTemplate(pattern.message, values) : undefined;
    return rendered ?? clampMessage(groups.detail ?? line);
  }

  private rememberException(text: string): void {
    if (EXCEPTION_HEADLINE.test(text)) this.lastException = clampMessage(text);
  }
}

function asNextLineDetail(text: string): string | undefined {
  if (!HAS_WORDS.test(text) || HEADING_ONLY.test(text)) return undefined;
  return text.trim().replace(/^Error:\s+/, '');
}

/** Python's final traceback line starts at column 0; frames and source lines are indented. */
function asExceptionLine(text: string): string | undefined {
  if (/^\s/.test(text) || TRACEBACK_NOISE.test(text) || !HAS_WORDS.test(text)) return undefined;
  return text.trim();
}
