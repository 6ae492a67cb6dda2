/**
 * Which widget a message carries, read from its submessages as the reference web app reads them
 * (web/src/submessage.ts): the first, sent by the message's own sender, names the widget and its
 * starting data; every later one is an event for it. A message whose first submessage is missing
 * or unreadable has no widget and shows its content.
 */
import type { Message, Submessage } from '../../api/model';
import { foldPoll, type PollSetup, type PollState } from './poll';
import { foldTodo, type TodoSetup, type TodoState } from './todo';
import { parseJsonObject, type WidgetEvent } from './widget-event';

export interface ZformChoice {
  shortName: string;
  longName: string;
  /** what pressing the choice sends to the conversation */
  reply: string;
}

export interface Zform {
  heading: string;
  choices: ZformChoice[];
}

export type MessageWidget =
  | { type: 'poll'; poll: PollState }
  | { type: 'todo'; todo: TodoState }
  | { type: 'zform'; form: Zform };

const isString = (v: unknown): v is string => typeof v === 'string';
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `extra_data` may be absent or null: an empty poll or list. */
function extraData(widget: Record<string, unknown>): Record<string, unknown> | null {
  const extra = widget.extra_data ?? {};
  return isObject(extra) ? extra : null;
}

function pollSetup(extra: Record<string, unknown>): PollSetup | null {
  const { question = '', options = [] } = extra;
  if (!isString(question) || !Array.isArray(options) || !options.every(isString)) return null;
  return { question, options };
}

function todoSetup(extra: Record<string, unknown>): TodoSetup | null {
  const { task_list_title: title = null, tasks = [] } = extra;
  if (title !== null && !isString(title)) return null;
  if (!Array.isArray(tasks)) return null;
  const read = tasks.map((t) =>
    isObject(t) && isString(t.task) && isString(t.desc ?? '')
      ? { task: t.task, desc: (t.desc ?? '') as string }
      : null,
  );
  if (read.some((t) => t === null)) return null;
  return { title, tasks: read as TodoSetup['tasks'] };
}

function zform(extra: Record<string, unknown>): Zform | null {
  const { type, heading = '', choices } = extra;
  if (type !== 'choices' || !isString(heading) || !Array.isArray(choices)) return null;
  const read = choices.map((c) =>
    isObject(c) && isString(c.short_name) && isString(c.reply) && isString(c.long_name ?? '')
      ? { shortName: c.short_name, longName: (c.long_name ?? '') as string, reply: c.reply }
      : null,
  );
  if (read.some((c) => c === null)) return null;
  return { heading, choices: read as ZformChoice[] };
}

/** The later submessages that are widget events; anything unreadable is left out. */
function widgetEvents(later: readonly Submessage[]): WidgetEvent[] {
  const events: WidgetEvent[] = [];
  for (const submessage of later) {
    if (submessage.msg_type !== 'widget') continue;
    const data = parseJsonObject(submessage.content);
    if (data && isString(data.type)) events.push({ senderId: submessage.sender_id, data });
  }
  return events;
}

export function messageWidget(message: Message, ownUserId: number): MessageWidget | null {
  const submessages = [...(message.submessages ?? [])].sort((a, b) => a.id - b.id);
  const [first, ...later] = submessages;
  // Someone else's submessage cannot turn a message into a widget.
  if (!first || first.msg_type !== 'widget' || first.sender_id !== message.sender_id) return null;
  const widget = parseJsonObject(first.content);
  const extra = widget && extraData(widget);
  if (!widget || !extra) return null;
  switch (widget.widget_type) {
    case 'poll': {
      const setup = pollSetup(extra);
      if (!setup) return null;
      const events = widgetEvents(later);
      return { type: 'poll', poll: foldPoll(setup, events, message.sender_id, ownUserId) };
    }
    case 'todo': {
      const setup = todoSetup(extra);
      if (!setup) return null;
      const events = widgetEvents(later);
      return { type: 'todo', todo: foldTodo(setup, events, message.sender_id, ownUserId) };
    }
    case 'zform': {
      const form = zform(extra);
      return form && { type: 'zform', form };
    }
    default:
      return null;
  }
}
