import { describe, expect, it } from 'vitest';
import { THEMES, contrastRatio, resolveTheme, type ThemeName } from './themes';

/** WCAG AA for normal-size text. */
const MIN_TEXT_CONTRAST = 4.5;
const THEME_NAMES: ThemeName[] = ['dark', 'light'];

describe('theme palettes', () => {
  for (const name of THEME_NAMES) {
    const app = THEMES[name].app;
    it(`${name}: text and every status colour reach ${MIN_TEXT_CONTRAST}:1 on the page and on panels`, () => {
      for (const colour of ['text', 'muted', 'ok', 'warn', 'err', 'busy'] as const) {
        for (const background of ['bg', 'panel'] as const) {
          const ratio = contrastRatio(app[colour], app[background]);
          expect(ratio, `${colour} on ${background}: ${ratio.toFixed(2)}`).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
        }
      }
      expect(contrastRatio(app.err, app.errBg)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    });

    it(`${name}: terminal foreground and ANSI colours are readable on the terminal background`, () => {
      const terminal = THEMES[name].terminal;
      const background = terminal.background ?? '#000000';
      expect(contrastRatio(terminal.foreground ?? '#ffffff', background)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
      for (const key of ['red', 'green', 'yellow', 'blue', 'magenta', 'cyan'] as const) {
        const colour = terminal[key];
        if (colour) expect(contrastRatio(colour, background), key).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
      }
    });
  }

  it('follows the system only when asked to', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });

  it('computes the WCAG ratio', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });
});
