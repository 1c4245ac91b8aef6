/**
 * Fills a pattern's message template ("Port {port} already in use"). A pattern may list several
 * templates; the first whose placeholders all have a value wins, so "Port already in use" is the
 * fallback when the port is not known.
 */

const PLACEHOLDER = /\{(\w+)\}/g;
/** A message is one line a person reads in a badge; a stack trace belongs in the logs. */
const MAX_MESSAGE_CHARS = 300;

type TemplateValues = Readonly<Record<string, string | number | undefined>>;

export function renderTemplate(templates: string | readonly string[], values: TemplateValues): string | undefined {
  const list = typeof templates === 'string' ? [templates] : templates;
  for (const template of list) {
    const names = [...template.matchAll(PLACEHOLDER)].map((m) => m[1]);
    if (!names.every((name) => hasValue(values[name]))) continue;
    return clampMessage(template.replace(PLACEHOLDER, (_, name: string) => String(values[name]).trim()));
  }
  return undefined;
}

export function clampMessage(message: string): string {
  const oneLine = message.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_MESSAGE_CHARS ? `${oneLine.slice(0, MAX_MESSAGE_CHARS - 1)}…` : oneLine;
}

function hasValue(value: string | number | undefined): boolean {
  return value !== undefined && String(value).trim().length > 0;
}
