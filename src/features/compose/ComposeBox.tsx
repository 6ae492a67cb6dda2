import { useMemo, useState, type FormEvent } from 'react';
import { useStore } from 'zustand';
import { SendIcon } from '../../components/icons';
import {
  useActiveUsers,
  useMutedUsers,
  useOwnUserId,
  useRealmLimits,
  useRealmSetting,
  useSortedSubscriptions,
  useUsersById,
} from '../../model/hooks';
import { narrowKey, type Narrow } from '../../narrow';
import { useSession } from '../app/session-context';
import { DmFields, StreamFields } from './RecipientFields';
import { MessageTextarea } from './MessageTextarea';
import { sendFromCompose } from './send';
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
  const saved = useStore(session.composeDrafts, (s) => s.byConversation[draftKey]);

  const initial = initialFor(narrow, ownUserId);
  const [mode, setMode] = useState<ComposeMode>(initial.mode);
  const [streamName, setStreamName] = useState(
    () => subscriptions.find((s) => s.stream_id === initial.streamId)?.name ?? '',
  );
  const [topic, setTopic] = useState(saved?.topic || initial.topic);
  const [recipients, setRecipients] = useState(initial.recipients);
  const [content, setContent] = useState(saved?.content ?? '');
  const [problem, setProblem] = useState<string | null>(null);

  const stream =
    subscriptions.find((s) => s.name.toLowerCase() === streamName.trim().toLowerCase()) ?? null;
  const typing = useTypingNotifier(typingTargetFor(mode, stream, topic, recipients));

  const saveDraft = (next: { topic?: string; content?: string }) =>
    session.composeDrafts
      .getState()
      .draftEdited(draftKey, { topic: next.topic ?? topic, content: next.content ?? content });

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!content.trim()) return;
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
      return;
    }
    setProblem(null);
    typing.stopped();
    sendFromCompose(session, target, content);
    setContent('');
    session.composeDrafts.getState().draftSent(draftKey);
  };

  return (
    <form className="compose" onSubmit={submit} aria-label="Compose message">
      <div className="compose-mode" role="group" aria-label="Message type">
        <button
          type="button"
          className="compose-mode-button"
          aria-pressed={mode === 'stream'}
          onClick={() => setMode('stream')}
        >
          Channel
        </button>
        <button
          type="button"
          className="compose-mode-button"
          aria-pressed={mode === 'direct'}
          onClick={() => setMode('direct')}
        >
          Direct message
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
        <MessageTextarea
          value={content}
          onChange={(value) => {
            setContent(value);
            saveDraft({ content: value });
            if (value.trim()) typing.typed();
            else typing.stopped();
          }}
          onSubmit={submit}
          users={users}
          maxLength={limits.maxMessageLength}
          placeholder={placeholderFor(
            mode,
            stream?.name,
            topic,
            recipients.map((id) => usersById[id]?.full_name ?? '').join(', '),
          )}
        />
        <button
          type="submit"
          className="button button-primary compose-send"
          disabled={!content.trim()}
          aria-label="Send message"
        >
          <SendIcon />
        </button>
      </div>
      {problem && (
        <p className="compose-problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
