import { useRef, useState, type FormEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { escapeHtml } from '../../components/escape-html';
import { useRealmLimits, useUserSetting, useUsersById } from '../../model/hooks';
import { viewToUrl, type Narrow } from '../../narrow';
import { useSession } from '../../model/session-context';
import { ScheduleDialog } from '../scheduled/ScheduleDialog';
import { placeholderFor, typingTargetFor } from './compose-target';
import { ComposeRecipient } from './ComposeRecipient';
import { ComposeToolbar } from './ComposeToolbar';
import { draftBody, useServerDraftSync } from './draft-sync';
import { MessageTextarea } from './MessageTextarea';
import { insertAtCaret } from './typeahead';
import { UploadList } from './UploadList';
import { useComposeFields, type ComposeFields } from './use-compose-fields';
import { useComposePreview, type ComposePreviewState } from './use-compose-preview';
import { useComposeRequestHandler } from './use-compose-request-handler';
import { useComposeSend, type ComposeSend } from './use-compose-send';
import { useTypingNotifier } from './use-typing-notifier';
import { useUploads } from './use-uploads';
import type { Upload } from './upload-queue';

/** The compose box under the feed; render it with `key={narrowKey(narrow)}` so each narrow starts fresh. */
export function ComposeBox({ narrow }: { narrow: Narrow }) {
  const { t } = useTranslation('compose');
  const session = useSession();
  const fields = useComposeFields(narrow);
  const [problem, setProblem] = useState<string | null>(null);
  const messageField = useRef<HTMLTextAreaElement>(null);
  const preview = useComposePreview(fields.content, messageField, setProblem);
  const { mode, stream, topic, recipients, content } = fields;
  const typing = useTypingNotifier(typingTargetFor(mode, stream, topic, recipients));
  const synced = useUserSetting('enable_drafts_synchronization') === true;
  const serverSync = useServerDraftSync({
    enabled: synced,
    draftKey: fields.draftKey,
    composeDrafts: session.composeDrafts,
    initialServerId: fields.restoredServerId,
    body: draftBody({ mode, streamId: stream?.stream_id ?? null, topic, recipients, content }),
  });
  useComposeRequestHandler(fields, preview.close);
  const { uploads, attach, cancel, dismiss, dropTarget } = useUploads(fields);
  const send = useComposeSend(fields, setProblem, () => {
    typing.stopped();
    fields.setContent('');
    preview.close();
    session.composeDrafts.getState().draftSent(fields.draftKey);
    serverSync.sent();
  });

  const { uploading, submit } = useSendAfterUploads(uploads, send.submit, setProblem);

  /** Puts `text` at the caret (or the end), spaced from the words around it. */
  const insertText = (text: string) => {
    const current = fields.contentRef.current;
    const at = messageField.current ? messageField.current.selectionEnd : current.length;
    const result = insertAtCaret(current, at, text);
    fields.setContent(result.text);
    fields.saveDraft({ content: result.text });
    requestAnimationFrame(() => {
      messageField.current?.focus();
      messageField.current?.setSelectionRange(result.caret, result.caret);
    });
  };

  return (
    <form className="compose" onSubmit={submit} aria-label={t('label')} {...dropTarget}>
      <ComposeRecipient fields={fields} />
      <div className="compose-row">
        <ComposeContent
          narrow={narrow}
          fields={fields}
          preview={preview}
          messageField={messageField}
          onEdit={(value) => (value.trim() ? typing.typed() : typing.stopped())}
          onSubmit={submit}
        />
        <ComposeToolbar
          hasContent={content.trim() !== '' && !uploading}
          preview={preview}
          onAttach={(files) => void attach(files)}
          onEmoji={(name) => insertText(`:${name}:`)}
          onInsert={insertText}
          onSchedule={send.openSchedule}
        />
      </div>
      <ScheduledStatus send={send} />
      {send.scheduling && (
        <ScheduleDialog
          title={t('scheduleTitle')}
          onClose={send.closeSchedule}
          onSchedule={send.schedule}
        />
      )}
      <UploadList uploads={uploads} onCancel={cancel} onDismiss={dismiss} />
      {problem && (
        <p className="compose-problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

interface ComposeContentProps {
  narrow: Narrow;
  fields: ComposeFields;
  preview: ComposePreviewState;
  messageField: RefObject<HTMLTextAreaElement | null>;
  /** after the text changed, with the new text */
  onEdit(value: string): void;
  onSubmit(): void;
}

/** The message: its text field, or its rendered preview. */
function ComposeContent({
  narrow,
  fields,
  preview,
  messageField,
  onEdit,
  onSubmit,
}: ComposeContentProps) {
  const { t } = useTranslation('compose');
  const limits = useRealmLimits();
  const usersById = useUsersById();
  const { mode, stream, topic, recipients } = fields;
  if (preview.html !== null)
    return (
      <div
        className="compose-preview rendered-markdown"
        role="region"
        aria-label={t('previewRegion')}
        // Sanitised: the server's HTML goes through DOMPurify like every message.
        dangerouslySetInnerHTML={{
          __html: preview.html || `<p><em>${escapeHtml(t('nothingToPreview'))}</em></p>`,
        }}
      />
    );
  return (
    <MessageTextarea
      value={fields.content}
      onChange={(value) => {
        fields.setContent(value);
        fields.saveDraft({ content: value });
        onEdit(value);
      }}
      onSubmit={onSubmit}
      place={{ narrow, mode, streamId: stream?.stream_id ?? null, topic, recipients }}
      textareaRef={messageField}
      maxLength={limits.maxMessageLength}
      placeholder={placeholderFor(
        mode,
        stream?.name,
        topic,
        recipients.map((id) => usersById[id]?.full_name ?? '').join(', '),
      )}
    />
  );
}

/** What was just scheduled, and a link to those already waiting for this conversation. */
function ScheduledStatus({ send }: { send: ComposeSend }) {
  const { t } = useTranslation('compose');
  const { scheduledNote, scheduledHere } = send;
  if (scheduledHere === 0 && !scheduledNote) return null;
  return (
    <p className="compose-scheduled" role="status">
      {scheduledNote && <span>{scheduledNote}</span>}
      {scheduledHere > 0 && (
        <Link to={viewToUrl('scheduled')} className="compose-scheduled-link">
          {t('scheduledHere', { count: scheduledHere })}
        </Link>
      )}
    </p>
  );
}

/**
 * The send, held back while a file uploads: the message would carry the file's placeholder
 * instead of its link.
 */
function useSendAfterUploads(
  uploads: readonly Upload[],
  send: (event?: FormEvent) => void,
  setProblem: (problem: string) => void,
) {
  const { t } = useTranslation('compose');
  const uploading = uploads.some((upload) => upload.status === 'uploading');
  const submit = (event?: FormEvent) => {
    if (uploading) {
      event?.preventDefault();
      setProblem(t('waitForUploads'));
      return;
    }
    send(event);
  };
  return { uploading, submit };
}
