import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Subscription, User } from '../../api/model';
import { Avatar } from '../../components/Avatar';
import { Combobox } from '../../components/Combobox';
import { CloseIcon } from '../../components/icons';
import { streamTopicsQuery } from '../../queries/topics';
import { useConnection } from '../../model/session-context';
import { matchStreams, matchTopics, matchUsers } from './autocomplete';

interface StreamFieldsProps {
  subscriptions: Subscription[];
  streamName: string;
  onStreamName(name: string): void;
  streamId: number | null;
  topic: string;
  onTopic(topic: string): void;
  maxTopicLength: number;
}

export function StreamFields({
  subscriptions,
  streamName,
  onStreamName,
  streamId,
  topic,
  onTopic,
  maxTopicLength,
}: StreamFieldsProps) {
  const { t } = useTranslation('compose');
  const connection = useConnection();
  const topics = useQuery({
    ...streamTopicsQuery(connection, streamId ?? -1),
    enabled: streamId !== null,
  });
  const streamSuggestions = useMemo(
    () =>
      matchStreams(subscriptions, streamName).map((s) => ({
        key: String(s.stream_id),
        label: s.name,
        decoration: (
          <span className="stream-swatch" style={{ background: s.color }} aria-hidden="true" />
        ),
      })),
    [subscriptions, streamName],
  );
  const topicSuggestions = useMemo(
    () =>
      matchTopics(
        (topics.data ?? []).map((t) => t.name),
        topic,
      )
        .filter((name) => name !== topic)
        .map((name) => ({ key: name, label: name })),
    [topics.data, topic],
  );

  return (
    <div className="compose-recipient">
      <Combobox
        id="compose-stream"
        label={t('channel')}
        className="compose-stream"
        value={streamName}
        onChange={onStreamName}
        suggestions={streamSuggestions.filter((s) => s.label !== streamName)}
        onPick={(s) => onStreamName(s.label)}
        placeholder={t('channel')}
      />
      <span className="compose-recipient-arrow" aria-hidden="true">
        ›
      </span>
      <Combobox
        id="compose-topic"
        label={t('topic')}
        className="compose-topic"
        value={topic}
        onChange={onTopic}
        suggestions={topicSuggestions}
        onPick={(s) => onTopic(s.label)}
        placeholder={t('topic')}
        maxLength={maxTopicLength}
      />
    </div>
  );
}

interface DmFieldsProps {
  users: User[];
  usersById: Readonly<Record<number, User>>;
  recipients: number[];
  onRecipients(ids: number[]): void;
}

export function DmFields({ users, usersById, recipients, onRecipients }: DmFieldsProps) {
  const { t } = useTranslation('compose');
  const [query, setQuery] = useState('');
  const suggestions = useMemo(
    () =>
      matchUsers(
        users.filter((u) => !recipients.includes(u.user_id)),
        query,
      ).map((u) => ({
        key: String(u.user_id),
        label: u.full_name,
        detail: u.email,
        decoration: <Avatar url={u.avatar_url} name={u.full_name} size={20} />,
      })),
    [users, recipients, query],
  );

  return (
    <div className="compose-recipient compose-dm">
      <Combobox
        id="compose-recipients"
        label={t('to')}
        className="compose-to"
        value={query}
        onChange={setQuery}
        suggestions={suggestions}
        onPick={(s) => {
          onRecipients([...recipients, Number(s.key)]);
          setQuery('');
        }}
        onKeyDown={(event) => {
          if (event.key === 'Backspace' && query === '' && recipients.length > 0)
            onRecipients(recipients.slice(0, -1));
        }}
        placeholder={recipients.length ? t('addSomeone') : t('whoFor')}
        adornment={
          recipients.length > 0 && (
            <ul className="recipient-chips" aria-label={t('recipients')}>
              {recipients.map((id) => (
                <li key={id} className="recipient-chip">
                  {usersById[id]?.full_name ?? t('unknownUser')}
                  <button
                    type="button"
                    aria-label={t('removeRecipient', {
                      name: usersById[id]?.full_name ?? t('unknownUser'),
                    })}
                    onClick={() => onRecipients(recipients.filter((r) => r !== id))}
                  >
                    <CloseIcon />
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      />
    </div>
  );
}
