import { useTranslation } from 'react-i18next';
import type { Message } from '../../api/model';
import { sanitizeHtml } from '../message-list/sanitize';

/** A message's topic, with the server's search highlights when it is a search result. */
export function TopicText({ message }: { message: Message }) {
  const { t } = useTranslation('search');
  if (message.match_subject)
    return <span dangerouslySetInnerHTML={{ __html: sanitizeHtml(message.match_subject) }} />;
  return <>{message.subject || t('noTopic')}</>;
}
