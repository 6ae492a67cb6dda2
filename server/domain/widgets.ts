/**
 * Widgets in messages, as the reference server makes and checks them (zerver/lib/widget.py and
 * the widget validators of zerver/lib/validator.py): a message whose content starts with `/poll`
 * or `/todo` becomes a poll or a to-do list, a bot may attach a form (`widget_content`), and each
 * later submessage is checked against the widget it changes. Errors are the reference's words.
 */

/** A submessage as message objects and `submessage` events carry it. */
export interface SubmessageRecord {
  id: number;
  message_id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

export interface WidgetContent {
  widget_type: string;
  extra_data: Record<string, unknown>;
}

/** A submessage the reference refuses; its message is the error the client sees. */
export class WidgetError extends Error {}

/** upstream MAX_IDX: the highest option or task index a client may give. */
export const MAX_IDX = 1000;

const WIDGET_COMMANDS = ['poll', 'todo'];

/** upstream get_widget_data: the widget a message's content starts with, if any. */
export function widgetFromContent(content: string): WidgetContent | null {
  const first = content.split(/\s+|\n+/)[0] ?? '';
  if (!first.startsWith('/')) return null;
  const type = first.slice(1);
  if (!WIDGET_COMMANDS.includes(type)) return null;
  const rest = content.replace(first, '');
  return { widget_type: type, extra_data: type === 'poll' ? pollData(rest) : todoData(rest) };
}

/** The first line is the title; each later line an item, without a leading `-` or `*` marker. */
function titleAndItems(text: string): [string, string[]] {
  const lines = text.split(/\r\n|\r|\n/);
  let title = '';
  if (lines.length && lines[0]) title = lines.shift()!.trim();
  const items = lines
    .map((line) => line.trim().replace(/^\s*[-*]?\s*/, ''))
    .filter((item) => item.length > 0);
  return [title, items];
}

function pollData(text: string) {
  const [question, options] = titleAndItems(text);
  return { question, options };
}

function todoData(text: string) {
  const [title, items] = titleAndItems(text);
  const tasks = items.map((item) => {
    const at = item.indexOf(': ');
    return at < 0
      ? { task: item.trim(), desc: '' }
      : { task: item.slice(0, at).trim(), desc: item.slice(at + 2).trim() };
  });
  return { task_list_title: title, tasks };
}

// The reference's validators, with their messages ("poll data is not a dict" and the like).
type Check = (name: string, value: unknown) => void;

const isDict = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const checkString: Check = (name, v) => {
  if (typeof v !== 'string') throw new WidgetError(`${name} is not a string`);
};
const checkInt: Check = (name, v) => {
  if (typeof v !== 'number' || !Number.isInteger(v))
    throw new WidgetError(`${name} is not an integer`);
};
const checkBool: Check = (name, v) => {
  if (typeof v !== 'boolean') throw new WidgetError(`${name} is not a boolean`);
};
const intIn =
  (allowed: number[]): Check =>
  (name, v) => {
    checkInt(name, v);
    if (!allowed.includes(v as number)) throw new WidgetError(`Invalid ${name}`);
  };
const intRange =
  (low: number, high: number): Check =>
  (name, v) => {
    checkInt(name, v);
    if ((v as number) < low) throw new WidgetError(`${name} is too small`);
    if ((v as number) > high) throw new WidgetError(`${name} is too large`);
  };
const listOf =
  (item: Check): Check =>
  (name, v) => {
    if (!Array.isArray(v)) throw new WidgetError(`${name} is not a list`);
    v.forEach((x, i) => item(`${name}[${i}]`, x));
  };

/** upstream check_dict (and check_dict_only with `only`). */
function dict(required: [string, Check][], only = false): Check {
  return (name, v) => {
    if (!isDict(v)) throw new WidgetError(`${name} is not a dict`);
    for (const [key, check] of required) {
      if (!(key in v)) throw new WidgetError(`${key} key is missing from ${name}`);
      check(`${name}["${key}"]`, v[key]);
    }
    if (only) {
      const known = new Set(required.map(([key]) => key));
      const extra = Object.keys(v).filter((key) => !known.has(key));
      if (extra.length) throw new WidgetError(`Unexpected arguments: ${extra.join(', ')}`);
    }
  };
}

/** upstream check_widget_content: the forms bots attach with `widget_content`. */
export function checkWidgetContent(value: unknown): WidgetContent {
  if (!isDict(value)) throw new WidgetError('widget_content is not a dict');
  if (!('widget_type' in value)) throw new WidgetError('widget_type is not in widget_content');
  if (!('extra_data' in value)) throw new WidgetError('extra_data is not in widget_content');
  const { widget_type: type, extra_data: extra } = value;
  if (!isDict(extra)) throw new WidgetError('extra_data is not a dict');
  if (type === 'zform') {
    if (!('type' in extra)) throw new WidgetError('zform is missing type field');
    if (extra.type === 'choices') {
      const choice = dict([
        ['short_name', checkString],
        ['long_name', checkString],
        ['reply', checkString],
      ]);
      dict([
        ['type', checkString],
        ['heading', checkString],
        ['choices', listOf(choice)],
      ])('extra_data', extra);
      return { widget_type: type, extra_data: extra };
    }
    throw new WidgetError(`unknown zform type: ${String(extra.type)}`);
  }
  throw new WidgetError(`unknown widget type: ${String(type)}`);
}

/** upstream validate_poll_data: a vote, a new option, or (its author's) new question. */
export function validatePollData(data: unknown, isAuthor: boolean): void {
  dict([['type', checkString]])('poll data', data);
  const type = (data as Record<string, unknown>).type;
  if (type === 'vote')
    return dict(
      [
        ['type', checkString],
        ['key', checkString],
        ['vote', intIn([1, -1])],
      ],
      true,
    )('poll data', data);
  if (type === 'question') {
    if (!isAuthor) throw new WidgetError("You can't edit a question unless you are the author.");
    return dict(
      [
        ['type', checkString],
        ['question', checkString],
      ],
      true,
    )('poll data', data);
  }
  if (type === 'new_option')
    return dict(
      [
        ['type', checkString],
        ['option', checkString],
        ['idx', intRange(0, MAX_IDX)],
      ],
      true,
    )('poll data', data);
  throw new WidgetError(`Unknown type for poll data: ${String(type)}`);
}

/** upstream validate_todo_data: a new task, a tick, or (its author's) new title. */
export function validateTodoData(data: unknown, isAuthor: boolean): void {
  dict([['type', checkString]])('todo data', data);
  const type = (data as Record<string, unknown>).type;
  if (type === 'new_task')
    return dict(
      [
        ['type', checkString],
        ['key', intRange(0, MAX_IDX)],
        ['task', checkString],
        ['desc', checkString],
        ['completed', checkBool],
      ],
      true,
    )('todo data', data);
  if (type === 'strike')
    return dict(
      [
        ['type', checkString],
        ['key', checkString],
      ],
      true,
    )('todo data', data);
  if (type === 'new_task_list_title') {
    if (!isAuthor)
      throw new WidgetError("You can't edit the task list title unless you are the author.");
    return dict(
      [
        ['type', checkString],
        ['title', checkString],
      ],
      true,
    )('todo data', data);
  }
  throw new WidgetError(`Unknown type for todo data: ${String(type)}`);
}

/** The widget type a message's first widget submessage names (upstream get_widget_type). */
export function widgetTypeOf(firstWidgetContent: string | undefined): string | null {
  if (firstWidgetContent === undefined) return null;
  try {
    const data = JSON.parse(firstWidgetContent) as unknown;
    return isDict(data) && typeof data.widget_type === 'string' ? data.widget_type : null;
  } catch {
    return null;
  }
}
