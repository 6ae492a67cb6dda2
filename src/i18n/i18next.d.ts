/**
 * Typed keys: `t('topbar.settings')` is checked against the English strings at compile time, so a
 * misspelt or removed key fails the type check instead of showing its name to people. Each
 * namespace file in locales/en is listed here once.
 */
import 'i18next';
import type adminOrg from './locales/en/adminOrg.json';
import type channels from './locales/en/channels.json';
import type common from './locales/en/common.json';
import type settings from './locales/en/settings.json';
import type groups from './locales/en/groups.json';
import type adminUsers from './locales/en/adminUsers.json';
import type compose from './locales/en/compose.json';
import type drafts from './locales/en/drafts.json';
import type people from './locales/en/people.json';
import type components from './locales/en/components.json';
import type login from './locales/en/login.json';
import type messages from './locales/en/messages.json';
import type navigation from './locales/en/navigation.json';
import type search from './locales/en/search.json';
import type widgets from './locales/en/widgets.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: {
      common: typeof common;
      settings: typeof settings;
      groups: typeof groups;
      adminUsers: typeof adminUsers;
      adminOrg: typeof adminOrg;
      channels: typeof channels;
      compose: typeof compose;
      drafts: typeof drafts;
      people: typeof people;
      components: typeof components;
      login: typeof login;
      messages: typeof messages;
      navigation: typeof navigation;
      search: typeof search;
      widgets: typeof widgets;
    };
  }
}
