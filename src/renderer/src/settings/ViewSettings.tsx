import { THEME_CHOICES, type ThemeChoice } from '../../../shared/uiState';
import { useUi } from '../app/store';

const THEME_LABELS: Record<ThemeChoice, string> = { dark: 'Dark', light: 'Light', system: 'Follow the system' };

/** Theme and terminal behaviour, saved with the project's view state. */
export function ViewSettings() {
  const theme = useUi((s) => s.view.theme);
  const copyOnSelect = useUi((s) => s.view.copyOnSelect);
  const { updateView } = useUi.getState();
  return (
    <fieldset className="view-settings" data-testid="view-settings">
      <legend>View</legend>
      <label>
        Theme{' '}
        <select data-testid="theme" value={theme} onChange={(e) => updateView({ theme: e.target.value as ThemeChoice })}>
          {THEME_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {THEME_LABELS[choice]}
            </option>
          ))}
        </select>
      </label>
      <label>
        <input
          type="checkbox"
          data-testid="copy-on-select"
          checked={copyOnSelect}
          onChange={(e) => updateView({ copyOnSelect: e.target.checked })}
        />{' '}
        Copy on select
      </label>
    </fieldset>
  );
}
