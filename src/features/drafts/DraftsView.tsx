import { useTranslation } from 'react-i18next';
import { Link } from '../../components/Link';
import { EmptyState } from '../../components/StatePanel';
import { currentLocale } from '../../i18n';
import { useStreamsById, useUsersById } from '../../model/hooks';
import { narrowToUrl, type Narrow } from '../../narrow';
import { useDeleteDraft } from '../../queries/drafts';
import { useSession } from '../../model/session-context';
import { dmConversationName } from '../sidebar/conversation-names';
import { useDraftEntries, type DraftEntry } from './draft-entries';

/** Unsent messages: those kept in this browser and those the server keeps, newest first. */
export function DraftsView() {
  const { t } = useTranslation('drafts');
  const session = useSession();
  // A refused deletion leaves the draft listed, which says enough.
  const { mutate: deleteServerDraft } = useDeleteDraft();
  const entries = useDraftEntries();

  const remove = (entry: DraftEntry) => {
    if (entry.source === 'local') session.composeDrafts.getState().draftSent(entry.key);
    else {
      session.composeDrafts.getState().serverDraftDeleted(entry.id);
      deleteServerDraft(entry.id);
    }
  };

  return (
    <section className="view-page" aria-labelledby="drafts-title">
      <header className="narrow-header">
        <div className="narrow-titles">
          <h1 id="drafts-title">{t('title')}</h1>
        </div>
      </header>
      <div className="view-scroll">
        {entries.length === 0 ? (
          <EmptyState title={t('emptyTitle')}>{t('emptyMessage')}</EmptyState>
        ) : (
          <ul className="draft-list">
            {entries.map((entry) => (
              <DraftRow
                key={entry.source === 'local' ? `local:${entry.key}` : `server:${entry.id}`}
                entry={entry}
                onDelete={() => remove(entry)}
              />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function useDraftTitle(narrow: Narrow | null): { title: string; url: string | null } {
  const { t } = useTranslation('drafts');
  const streams = useStreamsById();
  const users = useUsersById();
  if (narrow?.kind === 'topic' || narrow?.kind === 'stream') {
    const name = streams[narrow.streamId]?.name ?? t('unknownChannel');
    return {
      title:
        narrow.kind === 'topic'
          ? t('channelTopic', { channel: name, topic: narrow.topic || t('noTopic') })
          : name,
      url: narrowToUrl(narrow, name),
    };
  }
  if (narrow?.kind === 'dm')
    return { title: dmConversationName(narrow.userIds, users), url: narrowToUrl(narrow) };
  if (narrow) return { title: t('combinedFeed'), url: narrowToUrl(narrow) };
  return { title: t('noRecipient'), url: null };
}

function DraftRow({ entry, onDelete }: { entry: DraftEntry; onDelete(): void }) {
  const { t } = useTranslation('drafts');
  const { title, url } = useDraftTitle(entry.narrow);
  const when = entry.timestamp
    ? new Intl.DateTimeFormat(currentLocale(), {
        day: 'numeric',
        month: 'short',
        hour: 'numeric',
        minute: '2-digit',
      }).format(new Date(entry.timestamp))
    : null;
  return (
    <li className="draft-row">
      <div className="draft-main">
        <h2 className="draft-title">{url ? <Link to={url}>{title}</Link> : title}</h2>
        <p className="draft-content">{entry.content}</p>
        <p className="draft-meta">
          {entry.source === 'server' ? t('savedOnServer') : t('savedHere')}
          {when && (
            <>
              {' · '}
              <time dateTime={new Date(entry.timestamp).toISOString()}>{when}</time>
            </>
          )}
        </p>
      </div>
      <div className="draft-actions">
        {url && (
          <Link
            to={url}
            className="button button-small button-quiet"
            aria-label={t('resumeLabel', { title })}
          >
            {t('resume')}
          </Link>
        )}
        <button
          type="button"
          className="button button-small button-quiet"
          onClick={onDelete}
          aria-label={t('deleteLabel', { title })}
        >
          {t('delete')}
        </button>
      </div>
    </li>
  );
}
