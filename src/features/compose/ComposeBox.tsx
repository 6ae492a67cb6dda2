import {
  useEffect,
  useMemo,
  useRef,
  useState,
  type ClipboardEvent,
  type DragEvent,
  type FormEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '../../api/errors';
import { currentLocale } from '../../i18n';
import { useUploadFile } from '../../queries/uploads';
import { ClockIcon, EditIcon, PaperclipIcon, SendIcon, SmileIcon } from '../../components/icons';
import { useScheduleMessage } from '../../queries/scheduled';
import { ScheduleDialog } from '../scheduled/ScheduleDialog';
import { scheduledFor } from '../scheduled/schedule-times';
import { draftBody, serverDraftFor, useServerDraftSync } from './draft-sync';
import { useRenderMessage } from '../../queries/compose';
import { EmojiPicker } from '../emoji/EmojiPicker';
import { sanitizeMessageHtml } from '../message-list/sanitize';
import { insertAtCaret } from './typeahead';
import {
  useActiveUsers,
  useMutedUsers,
  useOwnUserId,
  useRealmLimits,
  useRealmSetting,
  useScheduledMessages,
  useServerDrafts,
  useSortedSubscriptions,
  useUserSetting,
  useUsersById,
} from '../../model/hooks';
import { narrowKey, viewToUrl, type Narrow } from '../../narrow';
import { useSession } from '../../model/session-context';
import { DmFields, StreamFields } from './RecipientFields';
import { MessageTextarea } from './MessageTextarea';
import { sendFromCompose } from '../../model/send';
import {
  insertOnOwnLine,
  REQUEST_LIFETIME_MS,
  useComposeRequests,
  type ComposeRequest,
} from '../../model/compose-request';
import { useTypingNotifier } from './use-typing-notifier';
import {
  initialFor,
  placeholderFor,
  resolveDestination,
  typingTargetFor,
  type ComposeMode,
} from './compose-target';

/** The compose box under the feed; render it with `key={narrowKey(narrow)}` so each narrow starts fresh. */
export function ComposeBox({ narrow }: { narrow: Narrow }) {
  const session = useSession();
  const ownUserId = useOwnUserId();
  const subscriptions = useSortedSubscriptions();
  const users = useActiveUsers();
  const usersById = useUsersById();
  const muted = useMutedUsers();
  // People you muted are not offered as direct-message recipients.
  const dmCandidates = useMemo(() => users.filter((u) => !(u.user_id in muted)), [users, muted]);
  const limits = useRealmLimits();
  const mandatoryTopics = useRealmSetting('mandatory_topics') === true;
  const draftKey = narrowKey(narrow);
  const synced = useUserSetting('enable_drafts_synchronization') === true;
  const serverDrafts = useServerDrafts();
  // What was left here before: this browser's copy, else (synchronised) the server's.
  const [restored] = useState(() => {
    const local = session.composeDrafts.getState().byConversation[draftKey];
    if (local && (!synced || local.serverId === undefined))
      return { topic: local.topic, content: local.content, serverId: null };
    if (local?.serverId !== undefined && serverDrafts[local.serverId])
      return { ...serverDrafts[local.serverId], serverId: local.serverId };
    // Synchronised, and its server copy was deleted elsewhere: it is gone.
    if (local) session.composeDrafts.getState().draftSent(draftKey);
    const found = synced ? serverDraftFor(serverDrafts, narrow, ownUserId) : null;
    return found
      ? { topic: found.topic, content: found.content, serverId: found.id ?? null }
      : null;
  });

  const initial = initialFor(narrow, ownUserId);
  const [mode, setMode] = useState<ComposeMode>(initial.mode);
  const [streamName, setStreamName] = useState(
    () => subscriptions.find((s) => s.stream_id === initial.streamId)?.name ?? '',
  );
  const { t } = useTranslation('compose');
  const [topic, setTopic] = useState(restored?.topic || initial.topic);
  const [recipients, setRecipients] = useState(initial.recipients);
  const [content, setContent] = useState(restored?.content ?? '');
  const [scheduling, setScheduling] = useState(false);
  const [scheduledNote, setScheduledNote] = useState<string | null>(null);
  const scheduleMessage = useScheduleMessage();
  const scheduledById = useScheduledMessages();
  const [problem, setProblem] = useState<string | null>(null);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  const messageField = useRef<HTMLTextAreaElement>(null);
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [preview, setPreview] = useState<string | null>(null);
  const render = useRenderMessage();
  const contentRef = useRef(content);
  contentRef.current = content;

  const stream =
    subscriptions.find((s) => s.name.toLowerCase() === streamName.trim().toLowerCase()) ?? null;
  const typing = useTypingNotifier(typingTargetFor(mode, stream, topic, recipients));
  const serverSync = useServerDraftSync({
    enabled: synced,
    draftKey,
    composeDrafts: session.composeDrafts,
    initialServerId: restored?.serverId ?? null,
    body: draftBody({
      mode,
      streamId: stream?.stream_id ?? null,
      topic,
      recipients,
      content,
    }),
  });
  const currentDestination = (() => {
    const target = resolveDestination({
      mode,
      stream,
      streamName,
      topic,
      recipients,
      mandatoryTopics: false,
    });
    return typeof target === 'string' ? null : target;
  })();
  const scheduledHere = Object.values(scheduledById).filter((m) =>
    scheduledFor(m, currentDestination, ownUserId),
  ).length;

  const saveDraft = (next: { topic?: string; content?: string }) =>
    session.composeDrafts
      .getState()
      .draftEdited(draftKey, { topic: next.topic ?? topic, content: next.content ?? content });

  // Reply, quote and the compose shortcuts reach the box through compose requests.
  const request = useComposeRequests((s) => s.latest);
  const applyRequest = useRef<(request: ComposeRequest) => void>(null);
  applyRequest.current = (request) => {
    let nextTopic = topic;
    if (request.to?.type === 'stream') {
      const streamId = request.to.streamId;
      nextTopic = request.to.topic;
      setMode('stream');
      setStreamName(subscriptions.find((s) => s.stream_id === streamId)?.name ?? '');
      setTopic(nextTopic);
    } else if (request.to?.type === 'direct') {
      setMode('direct');
      setRecipients(request.to.userIds);
    }
    let caret: number | null = null;
    setPreview(null);
    if (request.insert !== null) {
      const field = document.getElementById('compose-content') as HTMLTextAreaElement | null;
      const current = contentRef.current;
      const at = field && document.activeElement === field ? field.selectionStart : current.length;
      const result = insertOnOwnLine(current, at, request.insert);
      setContent(result.text);
      saveDraft({ topic: nextTopic, content: result.text });
      caret = result.caret;
    }
    const focusId = {
      content: 'compose-content',
      topic: 'compose-topic',
      recipients: 'compose-recipients',
    }[request.focus];
    requestAnimationFrame(() => {
      const field = document.getElementById(focusId) as
        HTMLInputElement | HTMLTextAreaElement | null;
      field?.focus();
      if (field && caret !== null) field.setSelectionRange(caret, caret);
    });
  };
  useEffect(() => {
    if (!request) return;
    useComposeRequests.getState().taken(request.seq);
    if (Date.now() - request.at <= REQUEST_LIFETIME_MS) applyRequest.current?.(request);
  }, [request]);

  const { mutateAsync: upload } = useUploadFile();
  /** Uploads files one by one and adds a Markdown link to each at the end of the message. */
  const attach = async (files: readonly File[]) => {
    for (const file of files) {
      const id = `${Date.now()}-${Math.random()}`;
      setUploads((list) => [...list, { id, name: file.name, error: null }]);
      try {
        const url = await upload(file);
        const current = contentRef.current;
        const separator = current === '' || current.endsWith('\n') ? '' : '\n';
        const next = `${current}${separator}[${markdownLinkText(file.name)}](${url})\n`;
        setContent(next);
        saveDraft({ content: next });
        setUploads((list) => list.filter((u) => u.id !== id));
      } catch (error) {
        const message = errorText(error, String(error));
        setUploads((list) => list.map((u) => (u.id === id ? { ...u, error: message } : u)));
      }
    }
  };

  /** Puts `:name:` at the caret (or the end), spaced from the words around it. */
  const insertEmoji = (name: string) => {
    const field = messageField.current;
    const current = contentRef.current;
    const at = field ? field.selectionEnd : current.length;
    const result = insertAtCaret(current, at, `:${name}:`);
    setContent(result.text);
    saveDraft({ content: result.text });
    requestAnimationFrame(() => {
      messageField.current?.focus();
      messageField.current?.setSelectionRange(result.caret, result.caret);
    });
  };

  const togglePreview = () => {
    if (preview !== null) {
      setPreview(null);
      requestAnimationFrame(() => messageField.current?.focus());
      return;
    }
    render.mutate(content, {
      onSuccess: (html) => setPreview(sanitizeMessageHtml(html, ownUserId)),
      onError: (error) =>
        setProblem(t('previewFailed', { error: errorText(error, String(error)) })),
    });
  };

  const onDrop = (event: DragEvent) => {
    if (!event.dataTransfer.files.length) return;
    event.preventDefault();
    void attach([...event.dataTransfer.files]);
  };
  const onPaste = (event: ClipboardEvent) => {
    if (!event.clipboardData.files.length) return;
    event.preventDefault();
    void attach([...event.clipboardData.files]);
  };

  /** Where the message goes, or null after saying what is missing. */
  const destination = () => {
    const target = resolveDestination({
      mode,
      stream,
      streamName,
      topic,
      recipients,
      mandatoryTopics,
    });
    if (typeof target === 'string') {
      setProblem(target);
      return null;
    }
    setProblem(null);
    return target;
  };

  /** The message has left compose: sent, or scheduled. */
  const cleared = () => {
    typing.stopped();
    setContent('');
    setPreview(null);
    session.composeDrafts.getState().draftSent(draftKey);
    serverSync.sent();
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!content.trim()) return;
    const target = destination();
    if (!target) return;
    setScheduledNote(null);
    sendFromCompose(session, target, content);
    cleared();
  };

  const schedule = async (at: Date) => {
    const target = destination();
    if (!target) {
      setScheduling(false);
      return;
    }
    await scheduleMessage.mutateAsync({
      ...(target.type === 'stream'
        ? { type: 'stream' as const, to: target.streamId, topic: target.topic }
        : { type: 'direct' as const, to: target.userIds }),
      content,
      scheduled_delivery_timestamp: Math.floor(at.getTime() / 1000),
    });
    cleared();
    setScheduledNote(
      t('scheduledFor', {
        time: new Intl.DateTimeFormat(currentLocale(), {
          weekday: 'short',
          day: 'numeric',
          month: 'short',
          hour: 'numeric',
          minute: '2-digit',
        }).format(at),
      }),
    );
  };

  return (
    <form
      className="compose"
      onSubmit={submit}
      aria-label={t('label')}
      onDragOver={(event) => {
        if (event.dataTransfer.types.includes('Files')) event.preventDefault();
      }}
      onDrop={onDrop}
      onPaste={onPaste}
    >
      <div className="compose-mode" role="group" aria-label={t('messageType')}>
        <button
          type="button"
          className="compose-mode-button"
          aria-pressed={mode === 'stream'}
          onClick={() => setMode('stream')}
        >
          {t('channel')}
        </button>
        <button
          type="button"
          className="compose-mode-button"
          aria-pressed={mode === 'direct'}
          onClick={() => setMode('direct')}
        >
          {t('directMessage')}
        </button>
      </div>
      {mode === 'stream' ? (
        <StreamFields
          subscriptions={subscriptions}
          streamName={streamName}
          onStreamName={setStreamName}
          streamId={stream?.stream_id ?? null}
          topic={topic}
          onTopic={(value) => {
            setTopic(value);
            saveDraft({ topic: value });
          }}
          maxTopicLength={limits.maxTopicLength}
        />
      ) : (
        <DmFields
          users={dmCandidates}
          usersById={usersById}
          recipients={recipients}
          onRecipients={setRecipients}
        />
      )}
      <div className="compose-row">
        {preview !== null ? (
          <div
            className="compose-preview rendered-markdown"
            role="region"
            aria-label={t('previewRegion')}
            // Sanitised: the server's HTML goes through DOMPurify like every message.
            dangerouslySetInnerHTML={{
              __html: preview || `<p><em>${escapeHtml(t('nothingToPreview'))}</em></p>`,
            }}
          />
        ) : (
          <MessageTextarea
            value={content}
            onChange={(value) => {
              setContent(value);
              saveDraft({ content: value });
              if (value.trim()) typing.typed();
              else typing.stopped();
            }}
            onSubmit={submit}
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
        )}
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          aria-label={t('filesToAttach')}
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            void attach(files);
          }}
        />
        <button
          type="button"
          className="icon-button compose-attach"
          aria-label={t('attachFiles')}
          title={t('attachFilesHint')}
          onClick={() => fileInput.current?.click()}
        >
          <PaperclipIcon />
        </button>
        <div className="compose-emoji-anchor">
          <button
            type="button"
            className="icon-button"
            aria-label={t('addEmoji')}
            title={t('addEmoji')}
            aria-haspopup="dialog"
            aria-expanded={emojiOpen}
            disabled={preview !== null}
            onClick={() => setEmojiOpen((open) => !open)}
          >
            <SmileIcon />
          </button>
          {emojiOpen && (
            <EmojiPicker
              label={t('addEmoji')}
              className="compose-emoji-picker"
              onClose={() => setEmojiOpen(false)}
              onPick={(emoji) => {
                setEmojiOpen(false);
                insertEmoji(emoji.name);
              }}
            />
          )}
        </div>
        <button
          type="button"
          className="icon-button compose-preview-toggle"
          aria-pressed={preview !== null}
          aria-label={preview !== null ? t('edit') : t('preview')}
          title={preview !== null ? t('backToEditing') : t('previewHint')}
          disabled={render.isPending || (preview === null && !content.trim())}
          onClick={togglePreview}
        >
          {preview !== null ? <EditIcon /> : <PreviewIcon />}
        </button>
        <button
          type="button"
          className="icon-button compose-schedule"
          aria-label={t('schedule')}
          title={t('scheduleHint')}
          aria-haspopup="dialog"
          disabled={!content.trim()}
          onClick={() => {
            if (destination()) setScheduling(true);
          }}
        >
          <ClockIcon />
        </button>
        <button
          type="submit"
          className="button button-primary compose-send"
          disabled={!content.trim()}
          aria-label={t('send')}
        >
          <SendIcon />
        </button>
      </div>
      {(scheduledHere > 0 || scheduledNote) && (
        <p className="compose-scheduled" role="status">
          {scheduledNote && <span>{scheduledNote}</span>}
          {scheduledHere > 0 && (
            <Link to={viewToUrl('scheduled')} className="compose-scheduled-link">
              {t('scheduledHere', { count: scheduledHere })}
            </Link>
          )}
        </p>
      )}
      {scheduling && (
        <ScheduleDialog
          title={t('scheduleTitle')}
          onClose={() => setScheduling(false)}
          onSchedule={schedule}
        />
      )}
      {uploads.length > 0 && (
        <ul className="compose-uploads" aria-label={t('uploads')}>
          {uploads.map((upload) => (
            <li key={upload.id} role={upload.error ? 'alert' : 'status'}>
              {upload.error ? (
                <>
                  <span className="compose-upload-error">
                    {t('uploadFailed', { name: upload.name, error: upload.error })}
                  </span>
                  <button
                    type="button"
                    className="button button-small button-quiet"
                    onClick={() => setUploads((list) => list.filter((u) => u.id !== upload.id))}
                  >
                    {t('dismiss')}
                  </button>
                </>
              ) : (
                <span>{t('uploading', { name: upload.name })}</span>
              )}
            </li>
          ))}
        </ul>
      )}
      {problem && (
        <p className="compose-problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

interface Upload {
  id: string;
  name: string;
  error: string | null;
}

/** A file name as link text: brackets would end the link early. */
export function markdownLinkText(name: string): string {
  return name.replace(/[[\]\\]/g, (c) => `\\${c}`);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const PreviewIcon = () => (
  <svg
    width="18"
    height="18"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    aria-hidden="true"
  >
    <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
    <circle cx="12" cy="12" r="3" />
  </svg>
);
