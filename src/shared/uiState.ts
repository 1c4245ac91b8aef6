/**
 * The per-project view state the UI keeps between reloads and restarts: theme, zoom, pane order,
 * collapsed panes, groups, sidebar width. The core stores it in its data directory, so the desktop
 * window and a browser on `serve` share it.
 */
import { z } from 'zod';
import { configKeyOf } from './configKey';

export const THEME_CHOICES = ['dark', 'light', 'system'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

export const DEFAULT_TERMINAL_FONT_SIZE_PX = 13;
/** Readable bounds: below 8 px glyphs blur, above 32 px a pane holds a few words per line. */
export const MIN_TERMINAL_FONT_SIZE_PX = 8;
export const MAX_TERMINAL_FONT_SIZE_PX = 32;
export const MIN_SIDEBAR_WIDTH_PX = 160;
export const MAX_SIDEBAR_WIDTH_PX = 600;
const DEFAULT_SIDEBAR_WIDTH_PX = 260;
/** Built-in groups; any other name is a custom group whose members the user picked. */
export const BUILTIN_GROUPS = ['all', 'servers', 'agents'] as const;

const FontSize = z.number().int().min(MIN_TERMINAL_FONT_SIZE_PX).max(MAX_TERMINAL_FONT_SIZE_PX);
/** A pane's stable name across restarts (ids are new every run): see `layoutKeyOf`. */
const PaneKey = z.string().min(1).max(300);
const GroupName = z.string().min(1).max(60);

const UiStateSchema = z.strictObject({
  theme: z.enum(THEME_CHOICES),
  /** Font size of every terminal without a zoom of its own. */
  fontSize: FontSize,
  /** Per-pane zoom, overriding `fontSize`. */
  paneFontSizes: z.record(PaneKey, FontSize),
  /** Pane order as the user arranged it; panes not listed follow in their own order. */
  order: z.array(PaneKey).max(1000),
  collapsed: z.array(PaneKey).max(1000),
  sidebarWidth: z.number().int().min(MIN_SIDEBAR_WIDTH_PX).max(MAX_SIDEBAR_WIDTH_PX),
  /** Width of the grid's columns as fractions (resizable splits); empty: equal columns. */
  columnWeights: z.array(z.number().min(0.05).max(20)).max(12),
  /** The group shown: a built-in one or a custom group's name. */
  group: GroupName,
  customGroups: z.record(GroupName, z.array(PaneKey).max(1000)),
  copyOnSelect: z.boolean(),
});
export type UiState = z.infer<typeof UiStateSchema>;

/** A change: only the fields given are replaced. */
export const UiStatePatchSchema = UiStateSchema.partial();
export type UiStatePatch = z.infer<typeof UiStatePatchSchema>;

export const DEFAULT_UI_STATE: UiState = {
  theme: 'system',
  fontSize: DEFAULT_TERMINAL_FONT_SIZE_PX,
  paneFontSizes: {},
  order: [],
  collapsed: [],
  sidebarWidth: DEFAULT_SIDEBAR_WIDTH_PX,
  columnWeights: [],
  group: 'all',
  customGroups: {},
  copyOnSelect: false,
};

/** Keeps every valid field of a stored state and the default for the rest (an old or hand-edited file loses nothing else). */
export function parseUiState(raw: unknown): UiState {
  const state: UiState = { ...DEFAULT_UI_STATE };
  if (typeof raw !== 'object' || raw === null) return state;
  const fields = UiStateSchema.shape;
  for (const key of Object.keys(fields) as (keyof UiState)[]) {
    const parsed = fields[key].safeParse((raw as Record<string, unknown>)[key]);
    if (parsed.success) (state as Record<string, unknown>)[key] = parsed.data;
  }
  return state;
}

/** Config entries keep their key across restarts; ad-hoc panes are known by name. */
export function layoutKeyOf(entry: { kind: string; name: string; configName?: string }): string {
  if (entry.configName) return configKeyOf(entry.kind, entry.configName);
  return `${entry.kind}:${entry.name}`;
}
