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
import { useTopicDialog, type MoveDialogRequest } from './dialog-store';
import { ChannelField, FailureNotice, NoticeChoices, PropagateField } from './dialog-fields';
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
  const { t } = useTranslation('search');
  const title = request.kind === 'rename' ? t('move.renameTitle') : t('move.moveTitle');
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
  useModalDialog(dialog, onClose, 'input:not([disabled]), select:not([disabled])');
  const topicId = useId();

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
          <Trans
            t={t}
            i18nKey="move.from"
            values={{
              channel: channels.nameOf(source.streamId),
              topic: source.topic || t('move.noTopic'),
            }}
            components={{ channel: <strong />, topic: <strong /> }}
          />
        </p>
        {request.kind !== 'rename' && (
          <ChannelField
            value={streamId}
            onChange={setStreamId}
            choices={channels.choices}
            disabled={!mayChangeChannel}
          />
        )}
        {mayChangeTopic ? (
          <Combobox
            id={topicId}
            label={request.kind === 'rename' ? t('move.newTopicName') : t('move.topic')}
            className="topic-dialog-field"
            value={topic}
            onChange={setTopic}
            suggestions={suggestions}
            onPick={(s) => setTopic(s.label)}
            maxLength={maxTopicLength}
          />
        ) : (
          <div className="topic-dialog-field">
            <label htmlFor={topicId} className="compose-label">
              {t('move.topic')}
            </label>
            <input id={topicId} className="text-input" value={topic} readOnly />
            <span className="topic-dialog-hint">{t('move.channelOnly')}</span>
          </div>
        )}
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
        <div className="topic-dialog-buttons">
          <button type="button" className="button button-quiet" onClick={onClose}>
            {t('move.cancel')}
          </button>
          <button
            type="submit"
            className="button button-primary"
            disabled={
              !changed || move.isPending || (newTopic === '' && !!settings.mandatory_topics)
            }
          >
            {move.isPending
              ? t('move.moving')
              : request.kind === 'rename'
                ? t('move.rename')
                : t('move.move')}
          </button>
        </div>
      </form>
    </dialog>
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
