/** The dialogs of the message actions menu: edit history, read receipts and message source. */
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
  const query = useMessageHistory(messageId);
  return (
    <Dialog label="Message edit history" onClose={onClose}>
      <QueryState query={query} loadingLabel="Loading the history…" errorTitle="No edit history">
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
  const ownUserId = useOwnUserId();
  const users = useUsersById();
  const who =
    version.user_id === null ? 'Someone' : (users[version.user_id]?.full_name ?? 'Unknown user');
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
          Topic changed from <q>{description.topicChange.from || '(no topic)'}</q> to{' '}
          <q>{description.topicChange.to || '(no topic)'}</q>
        </p>
      )}
      {description.streamChange && (
        <p className="edit-history-change">
          Channel changed from <StreamName id={description.streamChange.from} /> to{' '}
          <StreamName id={description.streamChange.to} />
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
  const stream = useStream(id ?? -1);
  return <strong>#{stream?.name ?? 'unknown channel'}</strong>;
}

function ReadReceiptsDialog({ messageId, onClose }: DialogProps) {
  const query = useReadReceipts(messageId);
  const users = useUsersById();
  return (
    <Dialog label="Read receipts" onClose={onClose}>
      <QueryState query={query} loadingLabel="Loading read receipts…" errorTitle="No read receipts">
        {(userIds) =>
          userIds.length === 0 ? (
            <p className="message-dialog-empty">No one has read this message yet.</p>
          ) : (
            <>
              <p className="message-dialog-note">
                {userIds.length === 1
                  ? 'This message has been read by 1 person:'
                  : `This message has been read by ${userIds.length} people:`}
              </p>
              <ul className="read-receipts" aria-label="People who read this message">
                {userIds.map((id) => {
                  const name = users[id]?.full_name ?? 'Unknown user';
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
  const query = useMessageSource(messageId);
  const source = query.data ? (query.data.raw_content ?? query.data.message.content) : null;
  const copy = () => {
    if (source === null) return;
    const ui = useMessageActionsUi.getState();
    navigator.clipboard.writeText(source).then(
      () => ui.statusShown('Source copied'),
      () => ui.statusShown('Could not copy the source.'),
    );
  };
  return (
    <Dialog
      label="Message source"
      onClose={onClose}
      footer={
        <button
          type="button"
          className="button button-small"
          onClick={copy}
          disabled={source === null}
        >
          Copy source
        </button>
      }
    >
      <QueryState query={query} loadingLabel="Loading the source…" errorTitle="No source">
        {() => (
          <textarea
            className="message-source"
            aria-label="Markdown source"
            readOnly
            value={source ?? ''}
            rows={Math.min(16, Math.max(3, (source ?? '').split('\n').length + 1))}
          />
        )}
      </QueryState>
    </Dialog>
  );
}
