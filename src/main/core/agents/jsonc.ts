/** JSON with comments, as agent CLIs read their settings (Gemini CLI's settings.json, opencode's config). */

/** Removes `//` and `/* *\/` comments and trailing commas outside strings. */
function toStrictJson(text: string): string {
  return text.replace(/("(?:\\.|[^"\\])*")|\/\/[^\n]*|\/\*[\s\S]*?\*\/|,(?=\s*[}\]])/g, (match, str: string | undefined) => str ?? '');
}

/** The text as a JSON object (comments and trailing commas allowed); undefined when it is not one. */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(toStrictJson(text));
    return isPlainObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
