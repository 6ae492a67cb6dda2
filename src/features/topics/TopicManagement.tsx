import { TopicDialogHost } from './MoveMessagesDialog';
import { useFollowMovedTopics } from './use-follow-moved-topics';

/** Once per app: follows moved topics and shows the rename and move dialogs menus open. */
export function TopicManagement() {
  useFollowMovedTopics();
  return <TopicDialogHost />;
}
