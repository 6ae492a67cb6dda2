/**
 * Run by bench/run.ts in a process of its own (it is the client's code, type-checked with the
 * client's configuration): prints one JSON object.
 *
 * The web client's own work at an organization's size, run in Node on the client's code: the
 * event reducer applying 100,000 events to the state of a person in a large organization, and
 * the mention typeahead's matching per keystroke over every user, and the copy of the state kept
 * in the browser between visits.
 */
import { parseEvent } from '../src/api/parse-event.js';
import { matchUsers } from '../src/features/compose/autocomplete.js';
import {
  accountStateFromSnapshot,
  reduceAccountEvents,
  type AccountState,
} from '../src/model/account-state.js';
import { keptState } from '../src/model/account-store.js';
import { eg } from '../src/test/eg.js';

export function clientFigures(userCount: number, channelCount: number) {
  const users = Array.from({ length: userCount }, (_, i) =>
    eg.user({ user_id: 1000 + i, full_name: `Person ${i} ${['Ada', 'Ben', 'Cy'][i % 3]}` }),
  );
  const subscriptions = Array.from({ length: channelCount }, (_, i) =>
    eg.subscription({ stream_id: 10 + i, name: `channel ${i}` }),
  );
  const self = users[0];
  const register = eg.registerResponse({
    user_id: self.user_id,
    email: self.email,
    realm_users: users,
    subscriptions,
  });
  const state = accountStateFromSnapshot(register);

  const raw: unknown[] = [];
  for (let i = 0; i < 100_000; i++) {
    const sender = users[1 + (i % (userCount - 1))];
    const stream = subscriptions[i % channelCount];
    const kind = i % 10;
    if (kind < 6) {
      raw.push(
        eg.messageEvent(
          eg.streamMessage({
            id: 1_000_000 + i,
            sender_id: sender.user_id,
            sender_full_name: sender.full_name,
            sender_email: sender.email,
            stream_id: stream.stream_id,
            display_recipient: stream.name,
            subject: `topic ${i % 300}`,
            flags: [],
          }),
          [],
        ),
      );
    } else if (kind < 8) {
      raw.push({
        id: 2_000_000 + i,
        type: 'update_message_flags',
        op: 'add',
        flag: 'read',
        messages: [1_000_000 + i - 3],
        all: false,
      });
    } else {
      // Someone starts typing, then stops (a conversation's entry goes away again).
      const typist = users[1 + ((i - (kind - 8)) % (userCount - 1))];
      const place = subscriptions[(i - (kind - 8)) % channelCount];
      raw.push({
        id: 2_000_000 + i,
        type: 'typing',
        op: kind === 8 ? 'start' : 'stop',
        message_type: 'stream',
        stream_id: place.stream_id,
        topic: `topic ${(i - (kind - 8)) % 300}`,
        sender: { user_id: typist.user_id, email: typist.email },
      });
    }
  }
  const events = raw.map(parseEvent);
  const unexpected = events.filter((e) => e.type === 'unexpected').length;
  if (unexpected) throw new Error(`${unexpected} synthetic events did not parse`);
  const start = performance.now();
  // The poller hands events over in batches, as long-polls return them.
  let current = state;
  for (let i = 0; i < events.length; i += 100)
    current = reduceAccountEvents(current, events.slice(i, i + 100), Date.now());
  const applyMs = Math.round(performance.now() - start);
  if (current === state) throw new Error('the events changed nothing');

  const typed = ['P', 'Pe', 'Per', 'Pers', 'Perso', 'Person', 'Person 4', 'Person 42', 'B', 'Be'];
  for (const q of typed) matchUsers(users, q);
  const t = performance.now();
  const rounds = 20;
  for (let r = 0; r < rounds; r++) for (const q of typed) matchUsers(users, q);
  const typeaheadMs = Math.round(((performance.now() - t) / (rounds * typed.length)) * 100) / 100;
  return { applyMs, typeaheadMs, keepMs: keepingMs(current) };
}

/**
 * Keeping the whole state in the browser (offline-keeper.ts), as the first save after a start
 * does: IndexedDB copies it by structured clone on the page's thread. The median of five, in ms.
 */
function keepingMs(state: AccountState) {
  const times: number[] = [];
  for (let r = 0; r < 5; r++) {
    const start = performance.now();
    structuredClone(keptState(state));
    times.push(performance.now() - start);
  }
  return Math.round(times.sort((a, b) => a - b)[2]! * 10) / 10;
}

const [users, channels] = process.argv.slice(2).map(Number);
console.log(JSON.stringify(clientFigures(users || 10_000, channels || 500)));
