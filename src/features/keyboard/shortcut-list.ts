/**
 * The shortcuts the help overlay lists: only ones that work in this app. Each entry gives its
 * alternatives; each alternative is a sequence of keys pressed together ("Shift", "A").
 */
export interface Shortcut {
  description: string;
  keys: string[][];
}

export interface ShortcutGroup {
  title: string;
  shortcuts: Shortcut[];
}

/** "Shift + A" is two keys pressed together; "+" alone is the plus key. */
const one = (...alternatives: string[]) => alternatives.map((key) => key.split(' + '));

export const SHORTCUT_GROUPS: ShortcutGroup[] = [
  {
    title: 'Navigation',
    shortcuts: [
      { description: 'Search messages', keys: one('/') },
      { description: 'Filter channels', keys: one('Q') },
      { description: 'Filter people', keys: one('W') },
      { description: 'Next unread topic', keys: one('N') },
      { description: 'Next unread direct message', keys: one('P') },
      { description: 'Previous or next channel', keys: one('Shift + A', 'Shift + D') },
      {
        description: 'Go to topic or DM of selected message; from a topic, its channel',
        keys: one('S'),
      },
      { description: 'Go to inbox', keys: one('Shift + I') },
      { description: 'Go to recent conversations', keys: one('T') },
      { description: 'Go to combined feed', keys: one('A') },
      { description: 'Go to drafts', keys: one('D') },
      { description: 'Close, leave the field, or go to your home view', keys: one('Esc') },
      { description: 'Show keyboard shortcuts', keys: one('?') },
    ],
  },
  {
    title: 'Messages',
    shortcuts: [
      { description: 'Previous message', keys: one('K', '↑') },
      { description: 'Next message', keys: one('J', '↓') },
      { description: 'First loaded message', keys: one('Home') },
      { description: 'Last message (marks the view read)', keys: one('End', 'Shift + G') },
      { description: 'Scroll up', keys: one('PgUp', 'Shift + K') },
      { description: 'Scroll down', keys: one('PgDn', 'Shift + J') },
      { description: 'Edit selected message', keys: one('E') },
      { description: 'Star selected message', keys: one('*') },
      { description: 'React with 👍', keys: one('+') },
      { description: 'Add emoji reaction', keys: one(':') },
      { description: 'Message actions menu', keys: one('I') },
      { description: 'Collapse or show message', keys: one('-') },
      { description: 'Mark as unread from selected message', keys: one('Shift + U') },
      { description: 'In Inbox and Recent: move between rows, open', keys: one('↑', '↓', 'Enter') },
    ],
  },
  {
    title: 'Composing',
    shortcuts: [
      { description: 'New channel message', keys: one('C') },
      { description: 'New direct message', keys: one('X') },
      { description: 'Reply to selected message', keys: one('R', 'Enter') },
      { description: 'Reply directly to sender', keys: one('Shift + R') },
      { description: 'Reply @-mentioning sender', keys: one('@') },
      { description: 'Quote selected message', keys: one('>') },
    ],
  },
];
