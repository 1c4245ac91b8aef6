/** Keeps the app chrome and every terminal on the chosen theme, following the system when asked. */
import { useUi } from '../app/store';
import { panes } from './terminalPane';
import { applyAppTheme, onSystemThemeChange, resolveTheme, systemPrefersDark, type ThemeName } from './themes';

export function currentThemeName(): ThemeName {
  return resolveTheme(useUi.getState().view.theme, systemPrefersDark());
}

export function installThemeController(): () => void {
  let applied: ThemeName | undefined;
  const apply = () => {
    const name = currentThemeName();
    if (name === applied) return;
    applied = name;
    applyAppTheme(name);
    for (const pane of panes.values()) pane.setTheme(name);
  };
  apply();
  const unsubscribeStore = useUi.subscribe((state, previous) => {
    if (state.view.theme !== previous.view.theme) apply();
  });
  const unsubscribeSystem = onSystemThemeChange(apply);
  return () => {
    unsubscribeStore();
    unsubscribeSystem();
  };
}
