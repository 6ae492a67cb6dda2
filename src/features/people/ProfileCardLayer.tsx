/**
 * Where profile cards open: the layer is always there (it also opens a card for a mention clicked
 * in a message), while the card's own code loads the first time one opens.
 */
import { lazy, Suspense, useEffect } from 'react';
import { createPortal } from 'react-dom';
import { useProfileCard } from './card-store';

const ProfileCard = lazy(() => import('./ProfileCard').then((m) => ({ default: m.ProfileCard })));

export function ProfileCardLayer() {
  const open = useProfileCard((s) => s.open);
  const show = useProfileCard((s) => s.show);
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      const mention = (event.target as Element | null)?.closest?.<HTMLElement>(
        '.message-content .user-mention[data-user-id]',
      );
      const userId = Number(mention?.dataset.userId);
      if (!mention || !Number.isInteger(userId) || userId <= 0) return;
      event.preventDefault();
      show(userId, mention);
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [show]);
  if (!open) return null;
  return createPortal(
    <Suspense fallback={null}>
      <ProfileCard key={`${open.userId}`} userId={open.userId} anchor={open.anchor} />
    </Suspense>,
    document.body,
  );
}
