/** The dialogs of the message actions menu: edit history, read receipts and message source. */
import { Trans, useTranslation } from 'react-i18next';
import { Avatar } from '../../components/Avatar';
import { QueryState } from '../../components/QueryState';
import type { MessageSnapshot } from '../../api/model/message-history';
import { useOwnUserId, useStream, useUsersById } from '../../model/hooks';
import { useMessageSource } from '../../queries/message-actions';
import { useMessageHistory, useReadReceipts } from '../../queries/message-menu';
import { formatFullDateTime } from '../message-list/format';
import { sanitizeMessageHtml } from '../message-list/sanitize';
import { Dialog } from './Dialog';
import { describeVersion } from './history';
import { useMessageActionsUi } from './store';

export function MessageDialogs() {
  const dialog = useMessageActionsUi((s) => s.dialog);
  if (!dialog) return null;
  const close = () => useMessageActionsUi.getState().dialogClosed();
  switch (dialog.kind) {
    case 'edit-history':
      return (
        <EditHistoryDialog key={dialog.messageId} messageId={dialog.messageId} onClose={close} />
      );
    case 'read-receipts':
      return (
        <ReadReceiptsDialog key={dialog.messageId} messageId={dialog.messageId} onClose={close} />
      );
    case 'source':
      return <SourceDialog key={dialog.messageId} messageId={dialog.messageId} onClose={close} />;
  }
}

interface DialogProps {
  messageId: number;
  onClose(): void;
}

function EditHistoryDialog({ messageId, onClose }: DialogProps) {
  const { t } = useTranslation('messages');
  const query = useMessageHistory(messageId);
  return (
    <Dialog label={t('history.title')} onClose={onClose}>
      <QueryState
        query={query}
        loadingLabel={t('history.loading')}
        errorTitle={t('history.failed')}
      >
        {(versions) => (
          <ol className="edit-history">
            {versions.map((version, index) => (
              <VersionEntry
                key={`${version.timestamp}-${index}`}
                version={version}
                first={index === 0}
              />
            ))}
          </ol>
        )}
      </QueryState>
    </Dialog>
  );
}

function VersionEntry({ version, first }: { version: MessageSnapshot; first: boolean }) {
  const { t } = useTranslation('messages');
  const ownUserId = useOwnUserId();
  const users = useUsersById();
  const who =
    version.user_id === null
      ? t('history.someone')
      : (users[version.user_id]?.full_name ?? t('history.unknownUser'));
  const description = describeVersion(version, first);
  const body = first
    ? version.rendered_content
    : description.contentEdited
      ? (version.content_html_diff ?? version.rendered_content)
      : null;
  return (
    <li className="edit-history-version">
      <div className="edit-history-meta">
        <span className="edit-history-action">
          {description.verb} {who}
        </span>
        <time dateTime={new Date(version.timestamp * 1000).toISOString()}>
          {formatFullDateTime(version.timestamp)}
        </time>
      </div>
      {description.topicChange && (
        <p className="edit-history-change">
          <Trans
            t={t}
            i18nKey="history.topicChanged"
            values={{
              from: description.topicChange.from || t('history.noTopic'),
              to: description.topicChange.to || t('history.noTopic'),
            }}
            components={{ from: <q />, to: <q /> }}
          />
        </p>
      )}
      {description.streamChange && (
        <p className="edit-history-change">
          <Trans
            t={t}
            i18nKey="history.channelChanged"
            components={{
              from: <StreamName id={description.streamChange.from} />,
              to: <StreamName id={description.streamChange.to} />,
            }}
          />
        </p>
      )}
      {body !== null && (
        <div
          className="edit-history-content rendered-markdown"
          dangerouslySetInnerHTML={{ __html: sanitizeMessageHtml(body, ownUserId) }}
        />
      )}
    </li>
  );
}

function StreamName({ id }: { id: number | undefined }) {
  const { t } = useTranslation('messages');
  const stream = useStream(id ?? -1);
  return <strong>#{stream?.name ?? t('history.unknownChannel')}</strong>;
}

function ReadReceiptsDialog({ messageId, onClose }: DialogProps) {
  const { t } = useTranslation('messages');
  const query = useReadReceipts(messageId);
  const users = useUsersById();
  return (
    <Dialog label={t('receipts.title')} onClose={onClose}>
      <QueryState
        query={query}
        loadingLabel={t('receipts.loading')}
        errorTitle={t('receipts.failed')}
      >
        {(userIds) =>
          userIds.length === 0 ? (
            <p className="message-dialog-empty">{t('receipts.none')}</p>
          ) : (
            <>
              <p className="message-dialog-note">
                {t('receipts.readBy', { count: userIds.length })}
              </p>
              <ul className="read-receipts" aria-label={t('receipts.listLabel')}>
                {userIds.map((id) => {
                  const name = users[id]?.full_name ?? t('history.unknownUser');
                  return (
                    <li key={id}>
                      <Avatar url={users[id]?.avatar_url} name={name} size={28} />
                      <span>{name}</span>
                    </li>
                  );
                })}
              </ul>
            </>
          )
        }
      </QueryState>
    </Dialog>
  );
}

function SourceDialog({ messageId, onClose }: DialogProps) {
  const { t } = useTranslation('messages');
  const query = useMessageSource(messageId);
  const source = query.data ? (query.data.raw_content ?? query.data.message.content) : null;
  const copy = () => {
    if (source === null) return;
    const ui = useMessageActionsUi.getState();
    navigator.clipboard.writeText(source).then(
      () => ui.statusShown(t('source.copied')),
      () => ui.statusShown(t('source.copyFailed')),
    );
  };
  return (
    <Dialog
      label={t('source.title')}
      onClose={onClose}
      footer={
        <button
          type="button"
          className="button button-small"
          onClick={copy}
          disabled={source === null}
        >
          {t('source.copy')}
        </button>
      }
    >
      <QueryState query={query} loadingLabel={t('source.loading')} errorTitle={t('source.failed')}>
        {() => (
          <textarea
            className="message-source"
            aria-label={t('source.label')}
            readOnly
            value={source ?? ''}
            rows={Math.min(16, Math.max(3, (source ?? '').split('\n').length + 1))}
          />
        )}
      </QueryState>
    </Dialog>
  );
}
