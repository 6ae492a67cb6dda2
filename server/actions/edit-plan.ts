/**
 * The shapes an edit passes between its steps (edit-message.ts plans and rewrites, move-messages.ts
 * moves and announces), and the one clock both read.
 */
import type { AppContext } from '../context.js';
import { RESOLVED_PREFIX } from '../domain/conversations.js';
import type { Database } from '../db/index.js';
import type { Message, Realm, Stream, User } from '../db/schema.js';
import type { DeliveredEvent, Delivery } from '../events/types.js';
import type { UpdateMessageEvent } from '../../src/api/model/index.js';

export interface EditRequest {
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode: 'change_one' | 'change_later' | 'change_all';
  notifyOld: boolean;
  notifyNew: boolean;
}

const stripResolved = (t: string) =>
  t.startsWith(RESOLVED_PREFIX) ? t.slice(RESOLVED_PREFIX.length) : t;

/** A topic change that only adds or removes the resolved marker. */
export function isPureResolveChange(oldTopic: string, newTopic: string): boolean {
  return oldTopic !== newTopic && stripResolved(oldTopic) === stripResolved(newTopic);
}

export const now = () => Math.floor(Date.now() / 1000);

/** What an edit decided before its transaction: every check passed, and the shape of the move. */
export interface EditPlan {
  newTopic: string | undefined;
  topicChanges: boolean;
  /** a topic change that only adds or removes the resolved marker, within the channel */
  pureResolve: boolean;
  newStream: Stream | null;
  moving: boolean;
  moveLimit: number | null;
  /** moderators and administrators move past the time limits */
  exempt: boolean;
  age: number;
}

/** One edit inside its transaction: who edits what, as decided, and the messages it touches. */
export interface EditInProgress {
  ctx: AppContext;
  trx: Database;
  events: Delivery[];
  realm: Realm;
  user: User;
  row: Message;
  req: EditRequest;
  plan: EditPlan;
  oldStream: Stream | null;
  targets: Message[];
  editTime: number;
  event: DeliveredEvent<UpdateMessageEvent>;
}
