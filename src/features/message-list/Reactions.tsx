/**
 * A message's emoji reactions: one chip per emoji with its count, pressed when it is yours, and a
 * small picker to add one. Changes go to the server; the reaction events update every copy.
 */
import { useCallback, useEffect, useId, useRef, useState, type CSSProperties } from 'react';
import { createPortal } from 'react-dom';
import { i18n } from '../../i18n';
import type { Message, Reaction, RealmEmoji, User } from '../../api/model';
import type { ReactionRef } from '../../queries/message-actions';
import { SmileIcon } from '../../components/icons';
import { useRealmEmojiById } from '../../model/hooks';
import { emojiGlyph, type Emoji } from '../emoji/emoji-data';
import { EmojiPicker } from '../emoji/EmojiPicker';
import { useFixedT } from '../../i18n/use-fixed-t';

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
    id === ownUserId
      ? i18n.t('messages:reactions.you')
      : (users[id]?.full_name ?? i18n.t('messages:reactions.someone')),
  );
  if (names.length <= 1) return names.join('');
  return i18n.t('messages:reactions.nameList', {
    list: names.slice(0, -1).join(', '),
    last: names[names.length - 1],
  });
}

/** Where the `:zulip:` emoji lives on Zulip servers. */
const ZULIP_EMOJI_URL = '/static/generated/emoji/images/emoji/unicode/zulip.png';

/** What a reaction shows: the glyph of a Unicode emoji, the image of a custom one. */
function ReactionEmoji({
  reference,
  realmEmoji,
}: {
  reference: ReactionRef;
  realmEmoji: Readonly<Record<string, RealmEmoji>>;
}) {
  // A server without the image (e.g. no :zulip: emoji) gets the name instead of a broken picture.
  const [broken, setBroken] = useState(false);
  const type = reference.reaction_type ?? 'unicode_emoji';
  const image =
    type === 'realm_emoji'
      ? realmEmoji[reference.emoji_code ?? '']?.source_url
      : type === 'zulip_extra_emoji'
        ? ZULIP_EMOJI_URL
        : undefined;
  if (image && !broken)
    return <img className="reaction-image" src={image} alt="" onError={() => setBroken(true)} />;
  const glyph =
    type === 'unicode_emoji' && reference.emoji_code ? emojiGlyph(reference.emoji_code) : '';
  return <>{glyph || `:${reference.emoji_name}:`}</>;
}

/** The reference picked in the emoji picker, as a reaction. */
export function reactionRefFor(emoji: Emoji): ReactionRef {
  return { emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.kind };
}

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
  const t = useFixedT('messages');
  const groups = groupReactions(message.reactions ?? [], ownUserId);
  const realmEmoji = useRealmEmojiById();
  const tooltipPrefix = useId();
  if (groups.length === 0) return null;
  return (
    <div className="reactions" role="group" aria-label={t('reactions.label')}>
      {groups.map((group) => {
        const who = reactorNames(group, ownUserId, users);
        const count = group.userIds.length;
        // German conjugates for "Du" and for several people; English says "reacted" either way.
        const values = { who, emoji: group.ref.emoji_name };
        const sentence =
          count > 1
            ? t('reactions.reactedPlural', values)
            : group.mine
              ? t('reactions.reactedYou', values)
              : t('reactions.reacted', values);
        return (
          <button
            key={group.key}
            type="button"
            className={group.mine ? 'reaction reaction-mine' : 'reaction'}
            aria-pressed={group.mine}
            disabled={readOnly}
            aria-label={t('reactions.chip', { emoji: group.ref.emoji_name, who })}
            aria-describedby={`${tooltipPrefix}-${group.key}`}
            onClick={() => onToggle(message, group.ref, !group.mine)}
          >
            <span className="reaction-emoji" aria-hidden="true">
              <ReactionEmoji reference={group.ref} realmEmoji={realmEmoji} />
            </span>
            <span className="reaction-count">{showNames && count <= 3 ? who : count}</span>
            <span className="reaction-tooltip" role="tooltip" id={`${tooltipPrefix}-${group.key}`}>
              {sentence}
            </span>
          </button>
        );
      })}
    </div>
  );
}

const PICKER_HEIGHT = 390;

/**
 * The "add a reaction" button and its emoji picker. The picker is fixed to the window, over the
 * feed (whose scrolling box would cut it off), above or below the button where there is room.
 */
export function ReactionPicker({
  message,
  onToggle,
  ownUserId,
}: Pick<ReactionsProps, 'message' | 'onToggle' | 'ownUserId'>) {
  const t = useFixedT('messages');
  const [place, setPlace] = useState<CSSProperties | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const mine = groupReactions(message.reactions ?? [], ownUserId).filter((g) => g.mine);
  const chosen = new Set(mine.map((g) => g.ref.emoji_name));
  const close = useCallback(() => setPlace(null), []);

  // The feed moving under a fixed picker would detach it from its message: close instead.
  useEffect(() => {
    if (!place) return;
    const onScroll = (event: Event) => {
      const target = event.target;
      if (target instanceof Element && target.closest('.emoji-picker')) return;
      setPlace(null);
    };
    window.addEventListener('scroll', onScroll, true);
    window.addEventListener('resize', close);
    return () => {
      window.removeEventListener('scroll', onScroll, true);
      window.removeEventListener('resize', close);
    };
  }, [place, close]);

  const open = () => {
    const box = root.current?.getBoundingClientRect();
    if (!box) return;
    const below = window.innerHeight - box.bottom;
    const right = Math.max(8, window.innerWidth - box.right);
    setPlace(
      below >= PICKER_HEIGHT || below >= box.top
        ? { position: 'fixed', top: box.bottom + 4, right }
        : { position: 'fixed', bottom: window.innerHeight - box.top + 4, right },
    );
  };

  return (
    <div className="reaction-picker-anchor" ref={root}>
      <button
        type="button"
        className="icon-button"
        aria-label={t('reactions.add')}
        title={t('reactions.add')}
        aria-haspopup="dialog"
        data-add-reaction
        aria-expanded={place !== null}
        onClick={() => (place ? close() : open())}
      >
        <SmileIcon />
      </button>
      {place &&
        createPortal(
          <EmojiPicker
            label={t('reactions.add')}
            className="reaction-emoji-picker"
            style={place}
            chosen={chosen}
            onClose={close}
            onPick={(emoji) => {
              const ref = reactionRefFor(emoji);
              const already = mine.some(
                (g) =>
                  g.ref.reaction_type === ref.reaction_type && g.ref.emoji_code === ref.emoji_code,
              );
              onToggle(message, ref, !already);
              close();
            }}
          />,
          document.body,
        )}
    </div>
  );
}
