/** The user's own settings (the `user_settings` object of the register response). */
import type { UserSettings, UserSettingsEvent } from '../api/model';

export type SettingsState = Readonly<UserSettings>;

export function reduceSettings(state: SettingsState, event: UserSettingsEvent): SettingsState {
  if (state[event.property] === event.value) return state;
  return { ...state, [event.property]: event.value };
}
