/**
 * A poll in place of its message: the question (its author may change it), each option with its
 * votes and who cast them, and a field to add an option. A vote shows at once and is confirmed by
 * the server's event; pressing it again takes the vote back.
 */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../api/model';
import { useSendWidgetEvent } from '../../queries/submessages';
import {
  hasOption,
  newOptionEvent,
  questionEvent,
  voteEvent,
  type PollOption,
  type PollState,
} from './poll';
import { EditableTitle, WidgetError } from './widget-parts';

interface PollWidgetProps {
  messageId: number;
  poll: PollState;
  ownUserId: number;
  isAuthor: boolean;
  users: Readonly<Record<number, User>>;
  readOnly: boolean;
}

/** The option as it will be once the own vote just sent arrives. */
function withOwnVote(option: PollOption, ownUserId: number, vote: number | undefined): PollOption {
  if (vote === undefined) return option;
  const others = option.voterIds.filter((id) => id !== ownUserId);
  return { ...option, voterIds: vote === 1 ? [...others, ownUserId] : others };
}

export function PollWidget({
  messageId,
  poll,
  ownUserId,
  isAuthor,
  users,
  readOnly,
}: PollWidgetProps) {
  const { t } = useTranslation('widgets');
  const titleId = useId();
  const { send, error, isPending } = useSendWidgetEvent(messageId);
  const [pendingVotes, setPendingVotes] = useState<Record<string, number>>({});
  const [problem, setProblem] = useState<string | null>(null);

  /** `option` as shown, a pending vote included: pressing twice takes the vote back. */
  const vote = (option: PollOption) => {
    const event = voteEvent(option, ownUserId);
    setProblem(null);
    setPendingVotes((pending) => ({ ...pending, [option.key]: event.vote }));
    void send(event).then(() => setPendingVotes(({ [option.key]: _done, ...rest }) => rest));
  };

  return (
    <div className="widget widget-poll" role="group" aria-labelledby={titleId}>
      <EditableTitle
        id={titleId}
        text={poll.question}
        fallback={t('poll.noQuestion')}
        canEdit={isAuthor && !readOnly}
        editLabel={t('poll.editQuestion')}
        inputLabel={t('poll.question')}
        saving={isPending}
        onSave={(text, done) => {
          setProblem(null);
          void send(questionEvent(text)).then((sent) => sent && done());
        }}
      />
      {poll.options.length === 0 && <p className="widget-empty">{t('poll.noOptions')}</p>}
      <ul className="poll-options">
        {poll.options.map((raw) => {
          const option = withOwnVote(raw, ownUserId, pendingVotes[raw.key]);
          return (
            <PollOptionRow
              key={option.key}
              option={option}
              ownUserId={ownUserId}
              users={users}
              readOnly={readOnly}
              onVote={() => vote(option)}
            />
          );
        })}
      </ul>
      {!readOnly && (
        <AddOption
          onAdd={(text, done) => {
            if (hasOption(poll, text)) {
              setProblem(t('poll.duplicate'));
              return;
            }
            setProblem(null);
            void send(newOptionEvent(poll, text)).then((sent) => sent && done());
          }}
        />
      )}
      <WidgetError error={error} problem={problem} />
    </div>
  );
}

function PollOptionRow({
  option,
  ownUserId,
  users,
  readOnly,
  onVote,
}: {
  option: PollOption;
  ownUserId: number;
  users: Readonly<Record<number, User>>;
  readOnly: boolean;
  onVote(): void;
}) {
  const { t } = useTranslation('widgets');
  const count = option.voterIds.length;
  const mine = option.voterIds.includes(ownUserId);
  const names = option.voterIds.map((id) => users[id]?.full_name ?? t('unknownUser')).join(', ');
  return (
    <li className="poll-option">
      <button
        type="button"
        className={mine ? 'poll-vote poll-vote-mine' : 'poll-vote'}
        aria-pressed={mine}
        aria-label={t('poll.vote', { option: option.text, count })}
        title={names || undefined}
        disabled={readOnly}
        onClick={onVote}
      >
        {count}
      </button>
      <div className="poll-option-body">
        <span className="poll-option-text">{option.text}</span>
        {names && <span className="poll-voters">{names}</span>}
      </div>
    </li>
  );
}

function AddOption({ onAdd }: { onAdd(text: string, done: () => void): void }) {
  const { t } = useTranslation('widgets');
  const [text, setText] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const option = text.trim();
    if (option) onAdd(option, () => setText(''));
  };
  return (
    <form className="widget-add" onSubmit={submit}>
      <input
        className="text-input widget-input"
        aria-label={t('poll.newOption')}
        placeholder={t('poll.newOptionPlaceholder')}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" className="button button-small" disabled={text.trim() === ''}>
        {t('poll.addOption')}
      </button>
    </form>
  );
}
