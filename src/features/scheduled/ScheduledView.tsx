/**
 * `/scheduled`: the user's messages waiting to be sent, soonest first, each with its recipient,
 * time and content, to edit, reschedule, send now or cancel. Events keep every tab in step.
 */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../components/Link';
import { errorText } from '../../api/errors';
import type { ScheduledMessage } from '../../api/model';
import { EmptyState } from '../../components/StatePanel';
import {
  useOwnUserId,
  useScheduledMessages,
  useStreamsById,
  useUsersById,
} from '../../model/hooks';
import { sortedScheduledMessages } from '../../model/scheduled-messages';
import { dmNarrow, narrowToUrl, topicNarrow } from '../../narrow';
import {
  useCancelScheduledMessage,
  useEditScheduledMessage,
  useSendScheduledNow,
} from '../../queries/scheduled';
import { sanitizeMessageHtml } from '../message-list/sanitize';
import { dmConversationName } from '../sidebar/conversation-names';
import { formatScheduleTime, ScheduleDialog } from './ScheduleDialog';

export function ScheduledView() {
  const { t } = useTranslation('drafts');
  const byId = useScheduledMessages();
  const messages = sortedScheduledMessages({ byId });
  return (
    <section className="view-page" aria-labelledby="scheduled-title">
      <header className="narrow-header">
        <div className="narrow-titles">
          <h1 id="scheduled-title">{t('scheduled.title')}</h1>
        </div>
      </header>
      <div className="view-scroll">
        {messages.length === 0 ? (
          <EmptyState title={t('scheduled.emptyTitle')}>{t('scheduled.emptyMessage')}</EmptyState>
        ) : (
          <ul className="scheduled-list">
            {messages.map((message) => (
              <ScheduledRow key={message.scheduled_message_id} message={message} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

/** Where a scheduled message goes, as a title and the conversation's address. */
function useRecipient(message: ScheduledMessage): { title: string; url: string | null } {
  const { t } = useTranslation('drafts');
  const streams = useStreamsById();
  const users = useUsersById();
  const ownUserId = useOwnUserId();
  if (message.type === 'stream') {
    const streamId = message.to as number;
    const name = streams[streamId]?.name ?? t('unknownChannel');
    const topic = message.topic ?? '';
    return {
      title: t('channelTopic', { channel: name, topic: topic || t('noTopic') }),
      url: narrowToUrl(topicNarrow(streamId, topic), name),
    };
  }
  const ids = Array.isArray(message.to) ? message.to : [message.to];
  const narrow = dmNarrow(ids, ownUserId);
  return {
    title: dmConversationName(narrow.kind === 'dm' ? narrow.userIds : ids, users),
    url: narrowToUrl(narrow),
  };
}

type RowMode = 'view' | 'edit' | 'reschedule' | 'cancel';

function ScheduledRow({ message }: { message: ScheduledMessage }) {
  const { t } = useTranslation('drafts');
  const ownUserId = useOwnUserId();
  const { title, url } = useRecipient(message);
  const id = message.scheduled_message_id;
  const when = new Date(message.scheduled_delivery_timestamp * 1000);
  const [mode, setMode] = useState<RowMode>('view');
  const [problem, setProblem] = useState<string | null>(null);
  const edit = useEditScheduledMessage();
  const cancel = useCancelScheduledMessage();
  const sendNow = useSendScheduledNow();
  const busy = edit.isPending || cancel.isPending || sendNow.isPending;
  const fail = (error: unknown) => setProblem(errorText(error, String(error)));
  const headingId = useId();

  return (
    <li className="scheduled-row" aria-labelledby={headingId}>
      <RowHeading id={headingId} title={title} url={url} when={when} />
      {message.failed && <p className="scheduled-failed">{t('scheduled.failed')}</p>}
      {mode === 'edit' ? (
        <EditForm
          message={message}
          busy={edit.isPending}
          onCancel={() => setMode('view')}
          onSave={(changes) => {
            setProblem(null);
            edit.mutate({ id, ...changes }, { onSuccess: () => setMode('view'), onError: fail });
          }}
        />
      ) : (
        <div
          className="scheduled-content rendered-markdown"
          // Sanitised: the server's HTML goes through DOMPurify like every message.
          dangerouslySetInnerHTML={{
            __html: sanitizeMessageHtml(message.rendered_content, ownUserId),
          }}
        />
      )}
      {mode === 'cancel' ? (
        <CancelConfirmation
          busy={busy}
          onConfirm={() => {
            setProblem(null);
            cancel.mutate(id, { onError: fail });
          }}
          onKeep={() => setMode('view')}
        />
      ) : (
        mode !== 'edit' && (
          <RowActions
            title={title}
            busy={busy}
            onMode={setMode}
            onSendNow={() => {
              setProblem(null);
              sendNow.mutate(message, { onError: fail });
            }}
          />
        )
      )}
      {problem && (
        <p className="scheduled-problem" role="alert">
          {problem}
        </p>
      )}
      {mode === 'reschedule' && (
        <ScheduleDialog
          title={t('scheduled.rescheduleTitle')}
          initial={when}
          onClose={() => setMode('view')}
          onSchedule={async (at) => {
            await edit.mutateAsync({
              id,
              scheduled_delivery_timestamp: Math.floor(at.getTime() / 1000),
            });
          }}
        />
      )}
    </li>
  );
}

function RowHeading({
  id,
  title,
  url,
  when,
}: {
  id: string;
  title: string;
  url: string | null;
  when: Date;
}) {
  return (
    <div className="scheduled-head">
      <h2 id={id} className="scheduled-title">
        {url ? <Link to={url}>{title}</Link> : title}
      </h2>
      <time className="scheduled-time" dateTime={when.toISOString()}>
        {formatScheduleTime(when)}
      </time>
    </div>
  );
}

function CancelConfirmation({
  busy,
  onConfirm,
  onKeep,
}: {
  busy: boolean;
  onConfirm(): void;
  onKeep(): void;
}) {
  const { t } = useTranslation('drafts');
  return (
    <div className="scheduled-actions" role="group" aria-label={t('scheduled.confirmCancel')}>
      <span className="scheduled-confirm">{t('scheduled.confirmCancel')}</span>
      <button
        type="button"
        className="button button-small button-danger"
        disabled={busy}
        onClick={onConfirm}
      >
        {t('scheduled.yesCancel')}
      </button>
      <button type="button" className="button button-small button-quiet" onClick={onKeep}>
        {t('scheduled.keep')}
      </button>
    </div>
  );
}

/** Edit, reschedule, send now or cancel; each button names the message it acts on. */
function RowActions({
  title,
  busy,
  onMode,
  onSendNow,
}: {
  title: string;
  busy: boolean;
  onMode(mode: RowMode): void;
  onSendNow(): void;
}) {
  const { t } = useTranslation('drafts');
  return (
    <div className="scheduled-actions">
      <button
        type="button"
        className="button button-small button-quiet"
        disabled={busy}
        onClick={() => onMode('edit')}
        aria-label={t('scheduled.editLabel', { title })}
      >
        {t('scheduled.edit')}
      </button>
      <button
        type="button"
        className="button button-small button-quiet"
        disabled={busy}
        onClick={() => onMode('reschedule')}
        aria-label={t('scheduled.rescheduleLabel', { title })}
      >
        {t('scheduled.reschedule')}
      </button>
      <button
        type="button"
        className="button button-small button-quiet"
        disabled={busy}
        onClick={onSendNow}
        aria-label={t('scheduled.sendNowLabel', { title })}
      >
        {t('scheduled.sendNow')}
      </button>
      <button
        type="button"
        className="button button-small button-quiet"
        disabled={busy}
        onClick={() => onMode('cancel')}
        aria-label={t('scheduled.cancelLabel', { title })}
      >
        {t('scheduled.cancel')}
      </button>
    </div>
  );
}

function EditForm({
  message,
  busy,
  onSave,
  onCancel,
}: {
  message: ScheduledMessage;
  busy: boolean;
  onSave(changes: { content: string; topic?: string }): void;
  onCancel(): void;
}) {
  const { t } = useTranslation('drafts');
  const [content, setContent] = useState(message.content);
  const [topic, setTopic] = useState(message.topic ?? '');
  const topicId = useId();
  const contentId = useId();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!content.trim()) return;
    onSave(message.type === 'stream' ? { content, topic } : { content });
  };
  return (
    <form className="scheduled-edit" onSubmit={onSubmit}>
      {message.type === 'stream' && (
        <div className="scheduled-field">
          <label htmlFor={topicId} className="compose-label">
            {t('scheduled.topic')}
          </label>
          <input
            id={topicId}
            className="text-input"
            value={topic}
            onChange={(event) => setTopic(event.target.value)}
          />
        </div>
      )}
      <div className="scheduled-field">
        <label htmlFor={contentId} className="compose-label">
          {t('scheduled.content')}
        </label>
        <textarea
          id={contentId}
          className="text-input scheduled-textarea"
          rows={4}
          value={content}
          onChange={(event) => setContent(event.target.value)}
        />
      </div>
      <div className="scheduled-actions">
        <button
          type="submit"
          className="button button-small button-primary"
          disabled={busy || !content.trim()}
        >
          {t('scheduled.save')}
        </button>
        <button type="button" className="button button-small button-quiet" onClick={onCancel}>
          {t('scheduled.discard')}
        </button>
      </div>
    </form>
  );
}
