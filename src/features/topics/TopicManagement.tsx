import { lazy, Suspense } from 'react';
import { useTopicDialog } from './dialog-store';
import { useFollowMovedTopics } from './use-follow-moved-topics';

// The dialog's code loads when a menu first opens it, not with the first view.
const MoveDialog = lazy(() =>
  import('./MoveMessagesDialog').then((m) => ({ default: m.MoveDialog })),
);

/** Once per app: follows moved topics and shows the rename and move dialogs menus open. */
export function TopicManagement() {
  useFollowMovedTopics();
  const request = useTopicDialog((s) => s.request);
  const close = useTopicDialog((s) => s.close);
  if (!request) return null;
  return (
    <Suspense fallback={null}>
      <MoveDialog key={JSON.stringify(request)} request={request} onClose={close} />
    </Suspense>
  );
}
