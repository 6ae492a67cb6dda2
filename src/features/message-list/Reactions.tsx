/**
 * A message's emoji reactions: one chip per emoji with its count, pressed when it is yours, and a
 * small picker to add one. Changes go to the server; the reaction events update every copy.
 */
import { useEffect, useRef, useState } from 'react';
import type { Message, Reaction, User } from '../../api/model';
import type { ReactionRef } from '../../queries/message-actions';
import { SmileIcon } from '../../components/icons';
import { emojiFromClassName } from './sanitize';

export interface ReactionGroup {
  key: string;
  ref: ReactionRef;
  userIds: number[];
  mine: boolean;
}

/** Groups reactions by emoji, in the order each emoji was first used. */
export function groupReactions(reactions: readonly Reaction[], ownUserId: number): ReactionGroup[] {
  const groups = new Map<string, ReactionGroup>();
  for (const r of reactions) {
    const key = `${r.reaction_type}:${r.emoji_code}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        key,
        ref: { emoji_name: r.emoji_name, emoji_code: r.emoji_code, reaction_type: r.reaction_type },
        userIds: [],
        mine: false,
      };
      groups.set(key, group);
    }
    const userId = r.user_id;
    if (!group.userIds.includes(userId)) group.userIds.push(userId);
    if (userId === ownUserId) group.mine = true;
  }
  return [...groups.values()];
}

/** "You, Othello and Iago" */
export function reactorNames(
  group: ReactionGroup,
  ownUserId: number,
  users: Readonly<Record<number, User>>,
): string {
  const names = group.userIds.map((id) =>
    id === ownUserId ? 'You' : (users[id]?.full_name ?? 'Someone'),
  );
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

const emojiGlyph = (ref: ReactionRef) =>
  (ref.reaction_type ?? 'unicode_emoji') === 'unicode_emoji' && ref.emoji_code
    ? emojiFromClassName(`emoji-${ref.emoji_code}`)
    : null;

/** Common reactions offered by the picker, with the server's names and codepoints. */
export const QUICK_REACTIONS: readonly ReactionRef[] = [
  ['thumbs_up', '1f44d'],
  ['heart', '2764'],
  ['joy', '1f602'],
  ['tada', '1f389'],
  ['eyes', '1f440'],
  ['white_check_mark', '2705'],
  ['pray', '1f64f'],
  ['open_mouth', '1f62e'],
  ['rocket', '1f680'],
  ['fire', '1f525'],
  ['clap', '1f44f'],
  ['100', '1f4af'],
  ['cry', '1f622'],
  ['thumbs_down', '1f44e'],
  ['wave', '1f44b'],
  ['muscle', '1f4aa'],
].map(([emoji_name, emoji_code]) => ({
  emoji_name,
  emoji_code,
  reaction_type: 'unicode_emoji' as const,
}));

interface ReactionsProps {
  message: Message;
  ownUserId: number;
  users: Readonly<Record<number, User>>;
  showNames: boolean;
  readOnly?: boolean;
  onToggle(message: Message, reaction: ReactionRef, add: boolean): void;
}

export function Reactions({
  message,
  ownUserId,
  users,
  showNames,
  readOnly = false,
  onToggle,
}: ReactionsProps) {
  const groups = groupReactions(message.reactions ?? [], ownUserId);
  if (groups.length === 0) return null;
  return (
    <div className="reactions" role="group" aria-label="Reactions">
      {groups.map((group) => {
        const who = reactorNames(group, ownUserId, users);
        const glyph = emojiGlyph(group.ref);
        const count = group.userIds.length;
        return (
          <button
            key={group.key}
            type="button"
            className={group.mine ? 'reaction reaction-mine' : 'reaction'}
            aria-pressed={group.mine}
            disabled={readOnly}
            aria-label={`${group.ref.emoji_name}: ${who}`}
            title={`${who} reacted with :${group.ref.emoji_name}:`}
            onClick={() => onToggle(message, group.ref, !group.mine)}
          >
            <span className="reaction-emoji" aria-hidden="true">
              {glyph ?? `:${group.ref.emoji_name}:`}
            </span>
            <span className="reaction-count">{showNames && count <= 3 ? who : count}</span>
          </button>
        );
      })}
    </div>
  );
}

/** The "add a reaction" button and its popover of common emoji. */
export function ReactionPicker({
  message,
  onToggle,
  ownUserId,
}: Pick<ReactionsProps, 'message' | 'onToggle' | 'ownUserId'>) {
  const [open, setOpen] = useState(false);
  // Opens upwards in the lower half of the window, so the feed's edge never cuts it off.
  const [upwards, setUpwards] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const mine = new Set(
    groupReactions(message.reactions ?? [], ownUserId)
      .filter((g) => g.mine)
      .map((g) => g.ref.emoji_code),
  );

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (
        event instanceof KeyboardEvent
          ? event.key === 'Escape'
          : !root.current?.contains(event.target as Node)
      )
        setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  return (
    <div className="reaction-picker-anchor" ref={root}>
      <button
        type="button"
        className="icon-button"
        aria-label="Add reaction"
        title="Add reaction"
        aria-expanded={open}
        onClick={() => {
          const box = root.current?.getBoundingClientRect();
          setUpwards(!!box && box.top > window.innerHeight / 2);
          setOpen((o) => !o);
        }}
      >
        <SmileIcon />
      </button>
      {open && (
        <div
          className={upwards ? 'reaction-picker reaction-picker-up' : 'reaction-picker'}
          role="menu"
          aria-label="Choose a reaction"
        >
          {QUICK_REACTIONS.map((ref) => (
            <button
              key={ref.emoji_code}
              type="button"
              role="menuitem"
              className={
                mine.has(ref.emoji_code) ? 'reaction-choice reaction-mine' : 'reaction-choice'
              }
              aria-label={ref.emoji_name}
              title={`:${ref.emoji_name}:`}
              onClick={() => {
                onToggle(message, ref, !mine.has(ref.emoji_code));
                setOpen(false);
              }}
            >
              {emojiGlyph(ref)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
