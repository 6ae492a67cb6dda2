// The shared settings list makes names and values part of the type: these lines are checked by
// `tsc -p tsconfig.json`, where each @ts-expect-error fails the build if the mistake compiles.
import { describe, expect, it } from 'vitest';
import type { UserSettingsEvent } from '../api/model';
import { defaultUserSettings, USER_SETTING_NAMES } from '../api/model/user-settings';
import { useUserSetting } from './hooks';
import { reduceSettings } from './settings';

// Never called: a hook needs a store; only the compiler reads it.
function useCompileOnlyChecks() {
  const scheme: 1 | 2 | 3 = useUserSetting('color_scheme');
  const home: 'recent_topics' | 'inbox' | 'all_messages' = useUserSetting('web_home_view');
  // @ts-expect-error a name outside the list
  useUserSetting('not_a_setting');
  // @ts-expect-error a boolean setting is not a string
  const wrong: string = useUserSetting('enter_sends');
  return [scheme, home, wrong];
}

describe('the typed user settings', () => {
  it('reduces a user_settings event into the value its name says', () => {
    const settings = {
      ...defaultUserSettings(),
      available_notification_sounds: [],
      emojiset_choices: [],
    };
    const event: UserSettingsEvent = {
      id: 1,
      type: 'user_settings',
      op: 'update',
      property: 'color_scheme',
      value: 2,
    };
    expect(reduceSettings(settings, event).color_scheme).toBe(2);
    // @ts-expect-error color_scheme is 1, 2 or 3
    const bad: UserSettingsEvent = {
      id: 2,
      type: 'user_settings',
      op: 'update',
      property: 'color_scheme',
      value: 'dark',
    };
    expect(bad).toBeDefined();
  });

  it('has a default for every setting', () => {
    expect(Object.keys(defaultUserSettings())).toEqual(USER_SETTING_NAMES);
    expect(useCompileOnlyChecks).toBeTypeOf('function');
  });
});
