import { useRef, useState, type FormEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../components/Link';
import { escapeHtml } from '../../components/escape-html';
import { CloseIcon } from '../../components/icons';
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
import { useCollapsingCompose, type CollapsingCompose } from './use-collapsing-compose';
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
  const serverSync = useDraftSync(fields);
  const collapsing = useCollapsingCompose(fields, () => {
    typing.stopped();
    preview.close();
  });
  useComposeRequestHandler(fields, preview.close, collapsing.opened);
  const { uploads, attach, cancel, dismiss, dropTarget } = useUploads(fields);
  const send = useComposeSend(fields, setProblem, () => {
    fields.setContent('');
    session.composeDrafts.getState().draftSent(fields.draftKey);
    serverSync.sent();
    collapsing.collapse(); // which also ends the typing notice and the preview
  });
  const insertText = useInsertText(fields, messageField);
  const placeholder = usePlaceholder(fields);
  const { uploading, submit } = useSendAfterUploads(uploads, send.submit, setProblem);

  if (collapsing.collapsed)
    return (
      <CollapsedCompose
        narrow={narrow}
        placeholder={placeholder}
        collapsing={collapsing}
        send={send}
      />
    );

  return (
    <form
      className="compose"
      onSubmit={submit}
      aria-label={t('label')}
      {...dropTarget}
      {...collapsing.formProps}
    >
      {collapsing.isPhone && <CloseButton onClose={collapsing.collapse} />}
      <ComposeRecipient fields={fields} />
      <div className="compose-row">
        <ComposeContent
          narrow={narrow}
          fields={fields}
          placeholder={placeholder}
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

/** The draft's copy on the server, when the person keeps drafts in step across devices. */
function useDraftSync(fields: ComposeFields) {
  const session = useSession();
  const synced = useUserSetting('enable_drafts_synchronization') === true;
  const { mode, stream, topic, recipients, content } = fields;
  return useServerDraftSync({
    enabled: synced,
    draftKey: fields.draftKey,
    composeDrafts: session.composeDrafts,
    initialServerId: fields.restoredServerId,
    body: draftBody({ mode, streamId: stream?.stream_id ?? null, topic, recipients, content }),
  });
}

/** Puts `text` at the caret (or the end), spaced from the words around it. */
function useInsertText(fields: ComposeFields, messageField: RefObject<HTMLTextAreaElement | null>) {
  return (text: string) => {
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
}

/** Folds the box on a phone (a draft stays in it). */
function CloseButton({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('compose');
  return (
    <button
      type="button"
      className="icon-button compose-close"
      aria-label={t('close')}
      title={t('close')}
      onClick={onClose}
    >
      <CloseIcon />
    </button>
  );
}

/** What the message field says while empty: where the message goes. */
function usePlaceholder(fields: ComposeFields): string {
  const usersById = useUsersById();
  const { mode, stream, topic, recipients } = fields;
  return placeholderFor(
    mode,
    stream?.name,
    topic,
    recipients.map((id) => usersById[id]?.full_name ?? '').join(', '),
  );
}

/**
 * The box on a phone until opened: in a conversation, a button that looks like the message
 * field and says where the message goes; elsewhere a "New message" button.
 */
function CollapsedCompose({
  narrow,
  placeholder,
  collapsing,
  send,
}: {
  narrow: Narrow;
  placeholder: string;
  collapsing: CollapsingCompose;
  send: ComposeSend;
}) {
  const { t } = useTranslation('compose');
  const conversation = narrow.kind === 'topic' || narrow.kind === 'stream' || narrow.kind === 'dm';
  return (
    <div className="compose-collapsed">
      <button
        ref={collapsing.button}
        type="button"
        className={conversation ? 'compose-collapsed-field' : 'button button-primary'}
        onClick={collapsing.expand}
      >
        {conversation ? placeholder : t('newMessage')}
      </button>
      <ScheduledStatus send={send} />
    </div>
  );
}

interface ComposeContentProps {
  narrow: Narrow;
  fields: ComposeFields;
  placeholder: string;
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
  placeholder,
  preview,
  messageField,
  onEdit,
  onSubmit,
}: ComposeContentProps) {
  const { t } = useTranslation('compose');
  const limits = useRealmLimits();
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
      placeholder={placeholder}
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
