/**
 * A poll's state: its canned options and the events people sent since, folded in submessage
 * order with the reference web app's rules (web/shared/src/poll_data.ts), so that every client
 * shows the same votes. Events the rules refuse, or cannot read, change nothing.
 */
import type { WidgetEvent } from './widget-event';

export interface PollOption {
  /** `canned,<i>` for the options the poll was created with, `<sender id>,<idx>` for added ones */
  key: string;
  text: string;
  /** in the order they voted */
  voterIds: number[];
}

export interface PollState {
  question: string;
  options: PollOption[];
  /** the idx the own user's next new option takes: one more than the highest of theirs seen */
  nextOwnIdx: number;
}

export interface PollSetup {
  question: string;
  options: string[];
}

/** Options per person are bounded, as in the reference. */
const MAX_IDX = 1000;

export function foldPoll(
  setup: PollSetup,
  events: readonly WidgetEvent[],
  authorId: number,
  ownUserId: number,
): PollState {
  // A Map keeps the order options were added in; re-adding a key keeps its place.
  const options = new Map<string, { text: string; voters: Set<number> }>();
  let question = setup.question;
  let nextOwnIdx = 1;

  const addOption = (sender: number | 'canned', idx: unknown, text: unknown) => {
    if (typeof idx !== 'number' || !Number.isFinite(idx) || typeof text !== 'string') return;
    // `/poll` may list an option twice; only its first copy counts.
    for (const option of options.values()) if (option.text === text) return;
    if (idx < 0 || idx > MAX_IDX) return;
    options.set(`${sender},${idx}`, { text, voters: new Set() });
    if (sender === ownUserId && nextOwnIdx <= idx) nextOwnIdx = idx + 1;
  };

  setup.options.forEach((text, i) => addOption('canned', i, text));

  for (const { senderId, data } of events) {
    switch (data.type) {
      case 'new_option':
        addOption(senderId, data.idx, data.option);
        break;
      case 'question':
        if (typeof data.question === 'string' && senderId === authorId) question = data.question;
        break;
      case 'vote': {
        const option = typeof data.key === 'string' ? options.get(data.key) : undefined;
        if (!option) break;
        if (data.vote === 1) {
          option.voters.add(senderId);
        } else if (data.vote === -1) {
          option.voters.delete(senderId);
        }
        break;
      }
    }
  }

  return {
    question,
    options: [...options].map(([key, { text, voters }]) => ({ key, text, voterIds: [...voters] })),
    nextOwnIdx,
  };
}

/** Voting for an option one has voted for takes the vote back. */
export function voteEvent(option: PollOption, ownUserId: number) {
  return { type: 'vote', key: option.key, vote: option.voterIds.includes(ownUserId) ? -1 : 1 };
}

export function newOptionEvent(poll: PollState, text: string) {
  return { type: 'new_option', idx: poll.nextOwnIdx, option: text };
}

export function questionEvent(question: string) {
  return { type: 'question', question };
}

/** Whether an option with this text is there already (the reference ignores a second one). */
export function hasOption(poll: PollState, text: string): boolean {
  return poll.options.some((option) => option.text === text);
}
