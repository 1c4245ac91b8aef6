/**
 * Evaluates one compiled matcher against a screen. Every condition present in a node must hold;
 * `all` / `any` / `not` combine nodes; `region` on a node switches the region it and its children
 * read (a rule can gate on the status bar while it matches text above the prompt).
 */
import type { CompiledMatcher } from './ruleSchema';
import type { RegionReader } from './regions';

export function matches(m: CompiledMatcher, reader: RegionReader, inheritedRegion: string): boolean {
  const region = m.region ?? inheritedRegion;
  if (m.contains.length || m.regex.length) {
    const text = reader.text(region);
    for (const s of m.contains) if (!text.includes(s)) return false;
    for (const r of m.regex) if (!r.test(text)) return false;
  }
  if (m.line.length) {
    const rows = reader.read(region);
    for (const r of m.line) if (!rows.some((row) => r.test(row))) return false;
  }
  for (const child of m.all) if (!matches(child, reader, region)) return false;
  if (m.any.length && !m.any.some((child) => matches(child, reader, region))) return false;
  if (m.not && matches(m.not, reader, region)) return false;
  return true;
}
