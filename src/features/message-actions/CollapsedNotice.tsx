/** A collapsed message: one line in place of its content, with a way to expand it. */
import type { Message } from '../../api/model';
import { useToggleCollapsed } from '../../queries/message-menu';

export function CollapsedNotice({ message }: { message: Message }) {
  const { mutate: toggleCollapsed } = useToggleCollapsed();
  return (
    <p className="message-collapsed">
      <span>[Collapsed]</span>{' '}
      <button type="button" className="link-button" onClick={() => toggleCollapsed(message)}>
        Expand
      </button>
    </p>
  );
}
