/**
 * The rename and move dialog, as the reference app's: where to (channel and topic), which
 * messages, and whether Notification Bot tells the old and the new topic. A move the time limit
 * refuses in part is explained with its counts, with an offer to move the part that may move.
 */
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { Message } from '../../api/model';
import { Combobox, type Suggestion } from '../../components/Combobox';
import { useRealmLimits, useSortedSubscriptions } from '../../model/hooks';
import { sameTopic } from '../../narrow';
import { useMoveMessages, useStreamTopics, type PropagateMode } from '../../queries/topics';
import { useTopicDialog, type MoveDialogRequest } from './dialog-store';
import { describeMoveFailure, type MoveFailure } from './move-error';
import { messageMovePermissions } from './permissions';
import { mayPostTo } from './posting';
import { useTopicPermissions } from './use-topic-permissions';

/** The dialog for one message, for the message actions menu. */
export function MoveMessagesDialog({ message, onClose }: { message: Message; onClose(): void }) {
  return <MoveDialog request={{ kind: 'message', message }} onClose={onClose} />;
}

/** Renders whichever dialog a menu opened (see dialog-store). */
export function TopicDialogHost() {
  const request = useTopicDialog((s) => s.request);
  const close = useTopicDialog((s) => s.close);
  if (!request) return null;
  return <MoveDialog key={JSON.stringify(request)} request={request} onClose={close} />;
}

const MODES: [PropagateMode, string][] = [
  ['change_one', 'Move only this message'],
  ['change_later', 'Move this and all following messages'],
  ['change_all', 'Move all messages in this topic'],
];

function MoveDialog({ request, onClose }: { request: MoveDialogRequest; onClose(): void }) {
  const source =
    request.kind === 'message' && request.message.type === 'stream'
      ? {
          streamId: request.message.stream_id,
          topic: request.message.subject,
          targetId: request.message.id,
        }
      : request.kind === 'message'
        ? null
        : request;
  const title = request.kind === 'rename' ? 'Rename topic' : 'Move messages';
  const { allowed, actor, settings } = useTopicPermissions();
  const timely =
    request.kind === 'message'
      ? messageMovePermissions(request.message, settings, actor, Date.now() / 1000)
      : { topic: allowed.editTopic, channel: allowed.moveBetweenChannels };
  const mayChangeChannel = request.kind !== 'rename' && timely.channel;
  const mayChangeTopic = timely.topic;

  const [streamId, setStreamId] = useState(source?.streamId ?? 0);
  const [topic, setTopic] = useState(source?.topic ?? '');
  const [mode, setMode] = useState<PropagateMode>(
    request.kind === 'message' ? 'change_one' : 'change_all',
  );
  const [notifyNew, setNotifyNew] = useState(true);
  const [notifyOld, setNotifyOld] = useState(false);
  const [failure, setFailure] = useState<MoveFailure | null>(null);
  const move = useMoveMessages();
  const { maxTopicLength } = useRealmLimits();
  const channels = useChannelChoices(source?.streamId ?? 0, actor.role);
  const suggestions = useTopicSuggestions(streamId, topic);

  const dialog = useRef<HTMLDialogElement>(null);
  useModal(dialog, onClose);
  const ids = { channel: useId(), topic: useId(), mode: useId() };

  if (!source) return null;
  const newTopic = topic.trim();
  const changed = streamId !== source.streamId || newTopic !== source.topic;

  const submit = (targetId: number, propagateMode: PropagateMode) => {
    setFailure(null);
    move.mutate(
      {
        messageId: targetId,
        topic: newTopic !== source.topic ? newTopic : undefined,
        streamId: streamId !== source.streamId ? streamId : undefined,
        propagateMode,
        notifyOld,
        notifyNew,
      },
      { onSuccess: onClose, onError: (error) => setFailure(describeMoveFailure(error)) },
    );
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (changed && !move.isPending) submit(source.targetId, mode);
  };

  return (
    <dialog ref={dialog} className="topic-dialog" aria-label={title} aria-modal="true">
      <form onSubmit={onSubmit} className="topic-dialog-form">
        <h2 className="topic-dialog-title">{title}</h2>
        <p className="topic-dialog-from">
          From <strong>#{channels.nameOf(source.streamId)}</strong> ›{' '}
          <strong>{source.topic || '(no topic)'}</strong>
        </p>
        {request.kind !== 'rename' && (
          <div className="topic-dialog-field">
            <label htmlFor={ids.channel} className="compose-label">
              Channel
            </label>
            <select
              id={ids.channel}
              className="text-input"
              value={streamId}
              disabled={!mayChangeChannel}
              aria-describedby={mayChangeChannel ? undefined : `${ids.channel}-why`}
              onChange={(e) => setStreamId(Number(e.target.value))}
            >
              {channels.choices.map((c) => (
                <option key={c.id} value={c.id}>
                  #{c.name}
                </option>
              ))}
            </select>
            {!mayChangeChannel && (
              <span id={`${ids.channel}-why`} className="topic-dialog-hint">
                You may change the topic here, not the channel.
              </span>
            )}
          </div>
        )}
        {mayChangeTopic ? (
          <Combobox
            id={ids.topic}
            label={request.kind === 'rename' ? 'New topic name' : 'Topic'}
            className="topic-dialog-field"
            value={topic}
            onChange={setTopic}
            suggestions={suggestions}
            onPick={(s) => setTopic(s.label)}
            maxLength={maxTopicLength}
          />
        ) : (
          <div className="topic-dialog-field">
            <label htmlFor={ids.topic} className="compose-label">
              Topic
            </label>
            <input id={ids.topic} className="text-input" value={topic} readOnly />
            <span className="topic-dialog-hint">
              You may change the channel here, not the topic.
            </span>
          </div>
        )}
        {request.kind === 'message' && (
          <div className="topic-dialog-field">
            <label htmlFor={ids.mode} className="compose-label">
              Which messages
            </label>
            <select
              id={ids.mode}
              className="text-input"
              value={mode}
              onChange={(e) => setMode(e.target.value as PropagateMode)}
            >
              {MODES.map(([value, text]) => (
                <option key={value} value={value}>
                  {text}
                </option>
              ))}
            </select>
          </div>
        )}
        <fieldset className="topic-dialog-notices">
          <legend className="visually-hidden">Notifications</legend>
          <label>
            <input
              type="checkbox"
              checked={notifyNew}
              onChange={(e) => setNotifyNew(e.target.checked)}
            />{' '}
            Send automated notice to new topic
          </label>
          <label>
            <input
              type="checkbox"
              checked={notifyOld}
              onChange={(e) => setNotifyOld(e.target.checked)}
            />{' '}
            Send automated notice to old topic
          </label>
        </fieldset>
        {failure && (
          <div className="topic-dialog-error" role="alert">
            <p>{failure.text}</p>
            {failure.kind === 'time-limit' && failure.firstAllowedId !== null && (
              <button
                type="button"
                className="button button-small"
                disabled={move.isPending}
                onClick={() => submit(failure.firstAllowedId!, 'change_later')}
              >
                {failure.allowed === 1
                  ? 'Move only the most recent message'
                  : `Move only the ${failure.allowed} most recent messages`}
              </button>
            )}
          </div>
        )}
        <div className="topic-dialog-buttons">
          <button type="button" className="button button-quiet" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="button button-primary"
            disabled={
              !changed || move.isPending || (newTopic === '' && !!settings.mandatory_topics)
            }
          >
            {move.isPending ? 'Moving…' : request.kind === 'rename' ? 'Rename' : 'Move'}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** Opens a native modal dialog (focus trapped, the page behind inert) and restores focus after. */
function useModal(dialog: React.RefObject<HTMLDialogElement | null>, onClose: () => void) {
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  }, [onClose]);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const before = document.activeElement as HTMLElement | null;
    if (typeof element.showModal === 'function' && !element.open) element.showModal();
    else element.setAttribute('open', '');
    element.querySelector<HTMLElement>('input:not([disabled]), select:not([disabled])')?.focus();
    // Escape: the browser's cancel, closed the React way so the state follows.
    const onCancel = (event: Event) => {
      event.preventDefault();
      closeRef.current();
    };
    element.addEventListener('cancel', onCancel);
    return () => {
      element.removeEventListener('cancel', onCancel);
      if (element.open && typeof element.close === 'function') element.close();
      if (before?.isConnected) before.focus();
    };
  }, [dialog]);
}

function useChannelChoices(currentId: number, role: number) {
  const subscriptions = useSortedSubscriptions();
  return useMemo(() => {
    const choices = subscriptions
      .filter((s) => s.stream_id === currentId || mayPostTo(s, role))
      .map((s) => ({ id: s.stream_id, name: s.name }));
    const names = new Map(choices.map((c) => [c.id, c.name]));
    return { choices, nameOf: (id: number) => names.get(id) ?? 'unknown channel' };
  }, [subscriptions, currentId, role]);
}

function useTopicSuggestions(streamId: number, text: string): Suggestion[] {
  const topics = useStreamTopics(streamId);
  return useMemo(() => {
    const needle = text.trim().toLowerCase();
    return (topics.data ?? [])
      .filter((t) => t.name.toLowerCase().includes(needle) && !sameTopic(t.name, text.trim()))
      .slice(0, 8)
      .map((t) => ({ key: t.name, label: t.name }));
  }, [topics.data, text]);
}
