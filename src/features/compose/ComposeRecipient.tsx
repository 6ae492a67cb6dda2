/** Where the message goes: a channel and topic, or people, with the switch between the two. */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useActiveUsers, useMutedUsers, useRealmLimits, useUsersById } from '../../model/hooks';
import { DmFields, StreamFields } from './RecipientFields';
import type { ComposeFields } from './use-compose-fields';

export function ComposeRecipient({ fields }: { fields: ComposeFields }) {
  const { t } = useTranslation('compose');
  const { mode, setMode } = fields;
  return (
    <>
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
      {mode === 'stream' ? <ChannelAndTopic fields={fields} /> : <People fields={fields} />}
    </>
  );
}

function ChannelAndTopic({ fields }: { fields: ComposeFields }) {
  const limits = useRealmLimits();
  return (
    <StreamFields
      subscriptions={fields.subscriptions}
      streamName={fields.streamName}
      onStreamName={fields.setStreamName}
      streamId={fields.stream?.stream_id ?? null}
      topic={fields.topic}
      onTopic={(value) => {
        fields.setTopic(value);
        fields.saveDraft({ topic: value });
      }}
      maxTopicLength={limits.maxTopicLength}
    />
  );
}

function People({ fields }: { fields: ComposeFields }) {
  const users = useActiveUsers();
  const usersById = useUsersById();
  const muted = useMutedUsers();
  // People you muted are not offered as direct-message recipients.
  const dmCandidates = useMemo(() => users.filter((u) => !(u.user_id in muted)), [users, muted]);
  return (
    <DmFields
      users={dmCandidates}
      usersById={usersById}
      recipients={fields.recipients}
      onRecipients={fields.setRecipients}
    />
  );
}
