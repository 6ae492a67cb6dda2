import type { UserStatus } from '../../api/model';
import { useRealmEmojiById } from '../../model/hooks';
import { emojiGlyph } from '../emoji/emoji-glyph';

/** A status emoji: a Unicode glyph, or a custom emoji's image. */
export function StatusEmoji({ status }: { status: UserStatus }) {
  const custom = useRealmEmojiById();
  if (!status.emoji_name) return null;
  if (status.reaction_type === 'realm_emoji') {
    const emoji = custom[status.emoji_code ?? ''];
    return emoji ? (
      <img className="status-emoji" src={emoji.source_url} alt={`:${status.emoji_name}:`} />
    ) : null;
  }
  return (
    <span className="status-emoji" role="img" aria-label={status.emoji_name.replace(/_/g, ' ')}>
      {emojiGlyph(status.emoji_code ?? '')}
    </span>
  );
}

/** The emoji and text someone set, on one line; nothing when they set neither. */
export function StatusLine({ status }: { status: UserStatus }) {
  if (!status.emoji_name && !status.status_text) return null;
  return (
    <p className="person-status">
      <StatusEmoji status={status} />
      {status.status_text && <span>{status.status_text}</span>}
    </p>
  );
}
