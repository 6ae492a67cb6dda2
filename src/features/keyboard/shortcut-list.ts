/**
 * The shortcuts the help overlay lists: only ones that work in this app. Each entry gives its
 * alternatives; each alternative is a sequence of keys pressed together ("Shift", "A").
 * Descriptions, group titles and key names are i18next keys, put into words at render time.
 */
import { i18n } from '../../i18n';
import navigation from '../../i18n/locales/en/navigation.json';

type ShortcutDescription = Exclude<
  keyof typeof navigation.shortcuts,
  'title' | 'buttonTitle' | 'close' | 'or' | 'groups' | 'keys'
>;

export interface Shortcut {
  /** its key in navigation:shortcuts */
  description: ShortcutDescription;
  keys: string[][];
}

export interface ShortcutGroup {
  /** its key in navigation:shortcuts.groups */
  title: 'navigation' | 'messages' | 'composing';
  shortcuts: Shortcut[];
}

/** "Shift + A" is two keys pressed together; "+" alone is the plus key. */
const one = (...alternatives: string[]) => alternatives.map((key) => key.split(' + '));

/** A key's name in the interface language ("Umschalt"); letters and symbols stay as they are. */
export function keyName(key: string): string {
  return key in navigation.shortcuts.keys
    ? i18n.t(`navigation:shortcuts.keys.${key as keyof typeof navigation.shortcuts.keys}`)
    : key;
}

export const SHORTCUT_GROUPS: ShortcutGroup[] = [
  {
    title: 'navigation',
    shortcuts: [
      { description: 'search', keys: one('/') },
      { description: 'filterChannels', keys: one('Q') },
      { description: 'filterPeople', keys: one('W') },
      { description: 'nextUnreadTopic', keys: one('N') },
      { description: 'nextUnreadDm', keys: one('P') },
      { description: 'prevNextChannel', keys: one('Shift + A', 'Shift + D') },
      {
        description: 'goToConversation',
        keys: one('S'),
      },
      { description: 'goToInbox', keys: one('Shift + I') },
      { description: 'goToRecent', keys: one('T') },
      { description: 'goToFeed', keys: one('A') },
      { description: 'goToDrafts', keys: one('D') },
      { description: 'escape', keys: one('Esc') },
      { description: 'showShortcuts', keys: one('?') },
    ],
  },
  {
    title: 'messages',
    shortcuts: [
      { description: 'previousMessage', keys: one('K', '↑') },
      { description: 'nextMessage', keys: one('J', '↓') },
      { description: 'firstMessage', keys: one('Home') },
      { description: 'lastMessage', keys: one('End', 'Shift + G') },
      { description: 'scrollUp', keys: one('PgUp', 'Shift + K') },
      { description: 'scrollDown', keys: one('PgDn', 'Shift + J') },
      { description: 'edit', keys: one('E') },
      { description: 'star', keys: one('*') },
      { description: 'thumbsUp', keys: one('+') },
      { description: 'addReaction', keys: one(':') },
      { description: 'actionsMenu', keys: one('I') },
      { description: 'collapse', keys: one('-') },
      { description: 'markUnread', keys: one('Shift + U') },
      { description: 'rows', keys: one('↑', '↓', 'Enter') },
    ],
  },
  {
    title: 'composing',
    shortcuts: [
      { description: 'newChannelMessage', keys: one('C') },
      { description: 'newDm', keys: one('X') },
      { description: 'reply', keys: one('R', 'Enter') },
      { description: 'replyDirect', keys: one('Shift + R') },
      { description: 'replyMention', keys: one('@') },
      { description: 'quote', keys: one('>') },
    ],
  },
];
