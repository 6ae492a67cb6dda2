/**
 * The rename and move dialog, as the reference app's: where to (channel and topic), which
 * messages, and whether Notification Bot tells the old and the new topic. A move the time limit
 * refuses in part is explained with its counts, with an offer to move the part that may move.
 */
import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import type { Message } from '../../api/model';
import { i18n } from '../../i18n';
import { Combobox, type Suggestion } from '../../components/Combobox';
import { useModalDialog } from '../../components/use-modal-dialog';
import { useRealmLimits, useSortedSubscriptions } from '../../model/hooks';
import { sameTopic } from '../../narrow';
import { useMoveMessages, useStreamTopics, type PropagateMode } from '../../queries/topics';
import type { MoveDialogRequest } from './dialog-store';
import { ChannelField, FailureNotice, NoticeChoices, PropagateField } from './dialog-fields';
import { describeMoveFailure, type MoveFailure } from './move-error';
import { messageMovePermissions } from './permissions';
import { mayPostTo } from './posting';
import { useTopicPermissions } from './use-topic-permissions';

/** The dialog for one message, for the message actions menu. */
export function MoveMessagesDialog({ message, onClose }: { message: Message; onClose(): void }) {
  return <MoveDialog request={{ kind: 'message', message }} onClose={onClose} />;
}

/** The dialog a menu opened (see dialog-store and TopicManagement). */
export function MoveDialog({ request, onClose }: { request: MoveDialogRequest; onClose(): void }) {
  const source = moveSource(request);
  const { t } = useTranslation('search');
  const title = request.kind === 'rename' ? t('move.renameTitle') : t('move.moveTitle');
  const { actor, settings, mayChangeChannel, mayChangeTopic } = useMovePermissions(request);

  const [streamId, setStreamId] = useState(source?.streamId ?? 0);
  const [topic, setTopic] = useState(source?.topic ?? '');
  const [mode, setMode] = useState<PropagateMode>(
    request.kind === 'message' ? 'change_one' : 'change_all',
  );
  const [notifyNew, setNotifyNew] = useState(true);
  const [notifyOld, setNotifyOld] = useState(false);
  const newTopic = topic.trim();
  const { move, failure, submit } = useMoveSubmit({
    source,
    streamId,
    newTopic,
    notifyOld,
    notifyNew,
    onClose,
  });
  const channels = useChannelChoices(source?.streamId ?? 0, actor.role);
  const suggestions = useTopicSuggestions(streamId, topic);

  const dialog = useRef<HTMLDialogElement>(null);
  useModalDialog(dialog, onClose, 'input:not([disabled]), select:not([disabled])');

  if (!source) return null;
  const changed = streamId !== source.streamId || newTopic !== source.topic;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (changed && !move.isPending) submit(source.targetId, mode);
  };

  return (
    <dialog ref={dialog} className="topic-dialog" aria-label={title} aria-modal="true">
      <form onSubmit={onSubmit} className="topic-dialog-form">
        <h2 className="topic-dialog-title">{title}</h2>
        <MovedFrom channel={channels.nameOf(source.streamId)} topic={source.topic} />
        {request.kind !== 'rename' && (
          <ChannelField
            value={streamId}
            onChange={setStreamId}
            choices={channels.choices}
            disabled={!mayChangeChannel}
          />
        )}
        <TopicField
          editable={mayChangeTopic}
          rename={request.kind === 'rename'}
          suggestions={suggestions}
          topic={topic}
          onChange={setTopic}
        />
        {request.kind === 'message' && <PropagateField value={mode} onChange={setMode} />}
        <NoticeChoices
          notifyNew={notifyNew}
          notifyOld={notifyOld}
          onChange={(choice) => {
            setNotifyNew(choice.notifyNew);
            setNotifyOld(choice.notifyOld);
          }}
        />
        {failure && (
          <FailureNotice
            failure={failure}
            pending={move.isPending}
            onMoveAllowed={(firstId) => submit(firstId, 'change_later')}
          />
        )}
        <DialogButtons
          rename={request.kind === 'rename'}
          pending={move.isPending}
          disabled={!changed || move.isPending || (newTopic === '' && !!settings.mandatory_topics)}
          onCancel={onClose}
        />
      </form>
    </dialog>
  );
}

function MovedFrom({ channel, topic }: { channel: string; topic: string }) {
  const { t } = useTranslation('search');
  return (
    <p className="topic-dialog-from">
      <Trans
        t={t}
        i18nKey="move.from"
        values={{ channel, topic: topic || t('move.noTopic') }}
        components={{ channel: <strong />, topic: <strong /> }}
      />
    </p>
  );
}

function DialogButtons({
  rename,
  pending,
  disabled,
  onCancel,
}: {
  rename: boolean;
  pending: boolean;
  disabled: boolean;
  onCancel(): void;
}) {
  const { t } = useTranslation('search');
  return (
    <div className="topic-dialog-buttons">
      <button type="button" className="button button-quiet" onClick={onCancel}>
        {t('move.cancel')}
      </button>
      <button type="submit" className="button button-primary" disabled={disabled}>
        {pending ? t('move.moving') : rename ? t('move.rename') : t('move.move')}
      </button>
    </div>
  );
}

/** Where the moved messages are now, and the message the move starts from. */
function moveSource(request: MoveDialogRequest) {
  if (request.kind !== 'message') return request;
  if (request.message.type !== 'stream') return null;
  return {
    streamId: request.message.stream_id,
    topic: request.message.subject,
    targetId: request.message.id,
  };
}

/** What this person may change: a message's own time limits, or the topic permissions. */
function useMovePermissions(request: MoveDialogRequest) {
  const { allowed, actor, settings } = useTopicPermissions();
  const timely =
    request.kind === 'message'
      ? messageMovePermissions(request.message, settings, actor, Date.now() / 1000)
      : { topic: allowed.editTopic, channel: allowed.moveBetweenChannels };
  const mayChangeChannel = request.kind !== 'rename' && timely.channel;
  return { actor, settings, mayChangeChannel, mayChangeTopic: timely.topic };
}

/** Sends the move; a refusal stays as a failure the dialog explains. */
function useMoveSubmit({
  source,
  streamId,
  newTopic,
  notifyOld,
  notifyNew,
  onClose,
}: {
  source: ReturnType<typeof moveSource>;
  streamId: number;
  newTopic: string;
  notifyOld: boolean;
  notifyNew: boolean;
  onClose(): void;
}) {
  const [failure, setFailure] = useState<MoveFailure | null>(null);
  const move = useMoveMessages();
  const submit = (targetId: number, propagateMode: PropagateMode) => {
    if (!source) return;
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
  return { move, failure, submit };
}

/** The new topic, with the channel's topics as suggestions; read-only when only the channel may change. */
function TopicField({
  editable,
  rename,
  suggestions,
  topic,
  onChange,
}: {
  editable: boolean;
  rename: boolean;
  suggestions: Suggestion[];
  topic: string;
  onChange(topic: string): void;
}) {
  const { t } = useTranslation('search');
  const { maxTopicLength } = useRealmLimits();
  const topicId = useId();
  if (editable)
    return (
      <Combobox
        id={topicId}
        label={rename ? t('move.newTopicName') : t('move.topic')}
        className="topic-dialog-field"
        value={topic}
        onChange={onChange}
        suggestions={suggestions}
        onPick={(s) => onChange(s.label)}
        maxLength={maxTopicLength}
      />
    );
  return (
    <div className="topic-dialog-field">
      <label htmlFor={topicId} className="compose-label">
        {t('move.topic')}
      </label>
      <input id={topicId} className="text-input" value={topic} readOnly />
      <span className="topic-dialog-hint">{t('move.channelOnly')}</span>
    </div>
  );
}

function useChannelChoices(currentId: number, role: number) {
  const subscriptions = useSortedSubscriptions();
  return useMemo(() => {
    const choices = subscriptions
      .filter((s) => s.stream_id === currentId || mayPostTo(s, role))
      .map((s) => ({ id: s.stream_id, name: s.name }));
    const names = new Map(choices.map((c) => [c.id, c.name]));
    return {
      choices,
      nameOf: (id: number) => names.get(id) ?? i18n.t('search:move.unknownChannel'),
    };
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
