/**
 * The profile card: a small dialog beside the name or avatar that opened it. Escape, a click
 * outside or following one of its links closes it, and the focus goes back where it came from.
 * Mentions in messages open it too (their HTML comes from the server, so clicks are delegated).
 */
import { useEffect, useId, useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../components/Link';
import type { User } from '../../api/model';
import { useOwnUserId, useProfileFields, useUser } from '../../model/hooks';
import { dmNarrow, filterNarrow, narrowToUrl } from '../../narrow';
import { useProfileCard } from './card-store';
import { FieldList, PersonFacts, PersonHeader } from './PersonDetails';

/** The URL of the messages someone sent. */
export const sentByUrl = (userId: number) =>
  narrowToUrl(filterNarrow([{ operator: 'sender', operand: String(userId), negated: false }]));

function placeBeside(anchor: HTMLElement, card: HTMLElement): CSSProperties {
  const margin = 8;
  if (window.innerWidth < 600) return { left: margin, right: margin, bottom: margin };
  const box = anchor.getBoundingClientRect();
  const width = card.offsetWidth;
  const height = card.offsetHeight;
  const left = Math.min(Math.max(margin, box.left), window.innerWidth - width - margin);
  const below = box.bottom + 4;
  const top =
    below + height <= window.innerHeight - margin ? below : Math.max(margin, box.top - height - 4);
  return { left, top };
}

export function ProfileCard({ userId, anchor }: { userId: number; anchor: HTMLElement }) {
  const user = useUser(userId);
  const close = useProfileCard((s) => s.close);
  const card = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<CSSProperties>({ visibility: 'hidden' });

  useLayoutEffect(() => {
    if (card.current) setPlace(placeBeside(anchor, card.current));
  }, [anchor, user]);

  useEffect(() => {
    card.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      close();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (card.current?.contains(target) || anchor.contains(target)) return;
      close();
    };
    document.addEventListener('keydown', onKey, true);
    document.addEventListener('pointerdown', onPointer, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', onPointer, true);
      if (anchor.isConnected) anchor.focus();
    };
  }, [anchor, close]);

  return (
    <div
      ref={card}
      className="profile-card"
      role="dialog"
      aria-labelledby={user ? `profile-card-${userId}` : undefined}
      tabIndex={-1}
      style={place}
    >
      {user ? <CardBody user={user} onLeave={close} /> : <UnknownPerson />}
    </div>
  );
}

function UnknownPerson() {
  const { t } = useTranslation('people');
  return <p className="profile-card-unknown">{t('unknown')}</p>;
}

function CardBody({ user, onLeave }: { user: User; onLeave(): void }) {
  const { t } = useTranslation('people');
  const ownUserId = useOwnUserId();
  const fields = useProfileFields().filter((f) => f.display_in_profile_summary);
  const descriptionId = useId();
  return (
    <>
      <PersonHeader user={user} headingId={`profile-card-${user.user_id}`} avatarSize={64} />
      <div id={descriptionId}>
        <PersonFacts user={user} />
        <FieldList fields={fields} user={user} />
      </div>
      <div className="profile-card-actions">
        {user.user_id !== ownUserId && (
          <Link
            className="button"
            to={narrowToUrl(dmNarrow([user.user_id], ownUserId))}
            onClick={onLeave}
          >
            {t('card.sendDm')}
          </Link>
        )}
        <Link className="button" to={sentByUrl(user.user_id)} onClick={onLeave}>
          {t('card.viewSent')}
        </Link>
        <Link className="button" to={`/user/${user.user_id}`} onClick={onLeave}>
          {t('card.viewProfile')}
        </Link>
      </div>
    </>
  );
}
