/**
 * A button face whose glyph is letters ("A+", "Aa") but means something else: screen readers get
 * the words only. An aria-label would not do: a label that does not contain the visible letters
 * breaks voice control ("click A plus"), which axe reports (label-content-name-mismatch).
 */
export function GlyphLabel({ glyph, label }: { glyph: string; label: string }) {
  return (
    <>
      <span aria-hidden="true">{glyph}</span>
      <span className="visually-hidden">{label}</span>
    </>
  );
}
