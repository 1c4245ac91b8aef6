/**
 * `${...}` references in an entry's command, args, env and url (docs/runtime.md): `${port}` (its
 * own port), `${port:NAME}` (another entry's port in the same worktree), `${url:NAME}` (that
 * entry's ready URL), `${worktree}` (the worktree's name). `$${` is a literal `${`.
 */

export type TemplateRef =
  | { kind: 'port' }
  | { kind: 'portOf'; name: string }
  | { kind: 'urlOf'; name: string }
  | { kind: 'worktree' }
  | { kind: 'unknown'; text: string };

interface TemplateValues {
  port(): string;
  portOf(name: string): string;
  urlOf(name: string): string;
  worktree: string;
}

const REFERENCE = /\$(\$)?\{([^}]*)\}/g;

/** The references in `text`, in order (escaped ones excluded). */
export function templateRefs(text: string): TemplateRef[] {
  const refs: TemplateRef[] = [];
  for (const match of text.matchAll(REFERENCE)) if (!match[1]) refs.push(parseRef(match[2]));
  return refs;
}

/** `text` with each reference replaced; call only after {@link templateRefs} found no unknown one. */
export function expandTemplate(text: string, values: TemplateValues): string {
  return text.replace(REFERENCE, (whole: string, escaped: string | undefined, body: string) => {
    if (escaped) return whole.slice(1);
    const ref = parseRef(body);
    switch (ref.kind) {
      case 'port':
        return values.port();
      case 'portOf':
        return values.portOf(ref.name);
      case 'urlOf':
        return values.urlOf(ref.name);
      case 'worktree':
        return values.worktree;
      case 'unknown':
        throw new Error(`unknown reference \${${ref.text}}`);
    }
  });
}

function parseRef(body: string): TemplateRef {
  const text = body.trim();
  if (text === 'port') return { kind: 'port' };
  if (text === 'worktree') return { kind: 'worktree' };
  const named = /^(port|url):([A-Za-z0-9][\w.-]*)$/.exec(text);
  if (named) return named[1] === 'port' ? { kind: 'portOf', name: named[2] } : { kind: 'urlOf', name: named[2] };
  return { kind: 'unknown', text: body };
}

export const KNOWN_REFERENCES = '${port}, ${port:NAME}, ${url:NAME}, ${worktree}';
