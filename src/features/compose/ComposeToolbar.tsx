/** The buttons beside the message: attach, emoji, calls, preview, schedule and send. */
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ClockIcon,
  EditIcon,
  PaperclipIcon,
  PhoneIcon,
  SendIcon,
  SmileIcon,
  VideoIcon,
} from '../../components/icons';
import { useJitsiCallServer } from '../../model/hooks';
import { EmojiPicker } from '../emoji/EmojiPicker';
import { callLinkMarkdown } from './call-links';
import type { ComposePreviewState } from './use-compose-preview';

interface ComposeToolbarProps {
  hasContent: boolean;
  preview: ComposePreviewState;
  onAttach(files: File[]): void;
  onEmoji(name: string): void;
  /** puts Markdown (a call link) at the caret */
  onInsert(text: string): void;
  onSchedule(): void;
}

export function ComposeToolbar({
  hasContent,
  preview,
  onAttach,
  onEmoji,
  onInsert,
  onSchedule,
}: ComposeToolbarProps) {
  const { t } = useTranslation('compose');
  return (
    <>
      <AttachButton onAttach={onAttach} />
      <EmojiButton disabled={preview.shown} onEmoji={onEmoji} />
      <CallButtons disabled={preview.shown} onInsert={onInsert} />
      <button
        type="button"
        className="icon-button compose-preview-toggle"
        aria-pressed={preview.shown}
        aria-label={preview.shown ? t('edit') : t('preview')}
        title={preview.shown ? t('backToEditing') : t('previewHint')}
        disabled={preview.pending || (!preview.shown && !hasContent)}
        onClick={preview.toggle}
      >
        {preview.shown ? <EditIcon /> : <PreviewIcon />}
      </button>
      <button
        type="button"
        className="icon-button compose-schedule"
        aria-label={t('schedule')}
        title={t('scheduleHint')}
        aria-haspopup="dialog"
        disabled={!hasContent}
        onClick={onSchedule}
      >
        <ClockIcon />
      </button>
      <button
        type="submit"
        className="button button-primary compose-send"
        disabled={!hasContent}
        aria-label={t('send')}
      >
        <SendIcon />
      </button>
    </>
  );
}

function AttachButton({ onAttach }: { onAttach(files: File[]): void }) {
  const { t } = useTranslation('compose');
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={fileInput}
        type="file"
        multiple
        hidden
        aria-label={t('filesToAttach')}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          onAttach(files);
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
    </>
  );
}

function EmojiButton({ disabled, onEmoji }: { disabled: boolean; onEmoji(name: string): void }) {
  const { t } = useTranslation('compose');
  const [open, setOpen] = useState(false);
  return (
    <div className="compose-emoji-anchor">
      <button
        type="button"
        className="icon-button"
        aria-label={t('addEmoji')}
        title={t('addEmoji')}
        aria-haspopup="dialog"
        aria-expanded={open}
        disabled={disabled}
        onClick={() => setOpen((was) => !was)}
      >
        <SmileIcon />
      </button>
      {open && (
        <EmojiPicker
          label={t('addEmoji')}
          className="compose-emoji-picker"
          onClose={() => setOpen(false)}
          onPick={(emoji) => {
            setOpen(false);
            onEmoji(emoji.name);
          }}
        />
      )}
    </div>
  );
}

/**
 * A video call and a voice call, each a link to a new Jitsi Meet meeting; shown only when the
 * organization's call provider is Jitsi Meet.
 */
function CallButtons({ disabled, onInsert }: { disabled: boolean; onInsert(text: string): void }) {
  const { t } = useTranslation('compose');
  const server = useJitsiCallServer();
  if (!server) return null;
  return (
    <>
      <button
        type="button"
        className="icon-button compose-call"
        aria-label={t('videoCall')}
        title={t('videoCallHint')}
        disabled={disabled}
        onClick={() => onInsert(callLinkMarkdown('video', server, t('joinVideoCall')))}
      >
        <VideoIcon />
      </button>
      <button
        type="button"
        className="icon-button compose-call"
        aria-label={t('voiceCall')}
        title={t('voiceCallHint')}
        disabled={disabled}
        onClick={() => onInsert(callLinkMarkdown('voice', server, t('joinVoiceCall')))}
      >
        <PhoneIcon />
      </button>
    </>
  );
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
