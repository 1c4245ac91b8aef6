/**
 * The two palettes (app chrome and terminals) and "follow the system". Colours are data here so a
 * test can check every status colour's contrast against the backgrounds it is drawn on.
 */
import type { ITheme } from '@xterm/xterm';
import type { ThemeChoice } from '../../../shared/uiState';

export type ThemeName = 'dark' | 'light';

/** CSS custom properties of the app; `tone` colours are drawn as text on `bg` and `panel`. */
interface AppPalette {
  bg: string;
  panel: string;
  border: string;
  text: string;
  muted: string;
  ok: string;
  warn: string;
  err: string;
  busy: string;
  /** Background of error bars and toasts (their text is `err`). */
  errBg: string;
  backdrop: string;
}

interface Theme {
  app: AppPalette;
  terminal: ITheme;
}

export const THEMES: Record<ThemeName, Theme> = {
  dark: {
    app: {
      bg: '#0f1115',
      panel: '#171a21',
      border: '#2a2f3a',
      text: '#d8dee9',
      muted: '#8a93a6',
      ok: '#5fd38d',
      warn: '#f0c05a',
      err: '#ff6b6b',
      busy: '#6cb6ff',
      errBg: '#3a1d22',
      backdrop: 'rgba(0, 0, 0, 0.6)',
    },
    terminal: {
      background: '#0f1115',
      foreground: '#d8dee9',
      cursor: '#d8dee9',
      selectionBackground: '#3b4252',
    },
  },
  light: {
    app: {
      bg: '#ffffff',
      panel: '#f3f4f6',
      border: '#c9d1d9',
      text: '#1f2328',
      muted: '#575f69',
      ok: '#116329',
      warn: '#7d4e00',
      err: '#b3141f',
      busy: '#0550ae',
      errBg: '#ffebe9',
      backdrop: 'rgba(0, 0, 0, 0.35)',
    },
    // xterm's default ANSI colours are made for dark backgrounds (yellow on white is unreadable).
    terminal: {
      background: '#ffffff',
      foreground: '#1f2328',
      cursor: '#1f2328',
      cursorAccent: '#ffffff',
      selectionBackground: '#b6d7ff',
      black: '#24292f',
      red: '#b3141f',
      green: '#116329',
      yellow: '#7d4e00',
      blue: '#0550ae',
      magenta: '#8250df',
      cyan: '#1b7c83',
      white: '#6e7781',
      brightBlack: '#57606a',
      brightRed: '#a40e26',
      brightGreen: '#1a7f37',
      brightYellow: '#633c01',
      brightBlue: '#0969da',
      brightMagenta: '#a475f9',
      brightCyan: '#3192aa',
      brightWhite: '#8c959f',
    },
  },
};

const SYSTEM_DARK_QUERY = '(prefers-color-scheme: dark)';

export function resolveTheme(choice: ThemeChoice, systemPrefersDark: boolean): ThemeName {
  if (choice === 'system') return systemPrefersDark ? 'dark' : 'light';
  return choice;
}

export function systemPrefersDark(): boolean {
  return window.matchMedia(SYSTEM_DARK_QUERY).matches;
}

/** Calls back when the system switches between light and dark. */
export function onSystemThemeChange(listener: () => void): () => void {
  const query = window.matchMedia(SYSTEM_DARK_QUERY);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

const CSS_VARIABLES: Record<keyof AppPalette, string> = {
  bg: '--bg',
  panel: '--panel',
  border: '--border',
  text: '--text',
  muted: '--muted',
  ok: '--ok',
  warn: '--warn',
  err: '--err',
  busy: '--busy',
  errBg: '--err-bg',
  backdrop: '--backdrop',
};

export function applyAppTheme(name: ThemeName, root: HTMLElement = document.documentElement): void {
  const palette = THEMES[name].app;
  for (const key of Object.keys(CSS_VARIABLES) as (keyof AppPalette)[]) root.style.setProperty(CSS_VARIABLES[key], palette[key]);
  root.style.setProperty('color-scheme', name);
  root.dataset.theme = name;
}

/** WCAG 2 contrast ratio of two #rrggbb colours (1…21). */
export function contrastRatio(foreground: string, background: string): number {
  const [a, b] = [relativeLuminance(foreground), relativeLuminance(background)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

function relativeLuminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r = 0, g = 0, b = 0] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
