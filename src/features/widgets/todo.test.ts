import { describe, expect, it } from 'vitest';
import type { Message, Submessage } from '../../api/model';
import { eg } from '../../test/eg';
import { messageWidget } from './message-widget';
import { newTaskEvent, strikeEvent, type TodoState } from './todo';

const AUTHOR = eg.otherUser.user_id;
const ME = eg.selfUser.user_id;
const THIRD = eg.thirdUser.user_id;

function todoMessage(
  events: [senderId: number, event: unknown][],
  extra: unknown = {
    task_list_title: 'Launch',
    tasks: [
      { task: 'Write notes', desc: 'by Friday' },
      { task: 'Book room', desc: '' },
    ],
  },
): Message {
  let id = 500;
  const sub = (sender_id: number, content: unknown): Submessage => ({
    id: id++,
    message_id: 43,
    sender_id,
    msg_type: 'widget',
    content: typeof content === 'string' ? content : JSON.stringify(content),
  });
  return eg.streamMessage({
    id: 43,
    sender_id: AUTHOR,
    submessages: [
      sub(AUTHOR, { widget_type: 'todo', extra_data: extra }),
      ...events.map(([sender, event]) => sub(sender, event)),
    ],
  });
}

function todo(message: Message): TodoState {
  const widget = messageWidget(message, ME);
  if (widget?.type !== 'todo') throw new Error(`not a to-do list: ${JSON.stringify(widget)}`);
  return widget.todo;
}

const tasks = (state: TodoState) =>
  state.tasks.map(
    (t) => `${t.key} ${t.task}${t.desc ? ` (${t.desc})` : ''}${t.completed ? ' ✓' : ''}`,
  );

describe('a to-do list folded from its submessages', () => {
  it('starts with its title and the canned tasks, keyed <i>,canned', () => {
    const state = todo(todoMessage([]));
    expect(state.title).toBe('Launch');
    expect(tasks(state)).toEqual(['0,canned Write notes (by Friday)', '1,canned Book room']);
  });

  it('has no title of its own when the list was created without one', () => {
    expect(todo(todoMessage([], { tasks: [] })).title).toBeNull();
    expect(todo(todoMessage([], null)).tasks).toEqual([]);
  });

  it('adds tasks keyed <key>,<sender>, once per name', () => {
    const state = todo(
      todoMessage([
        [THIRD, { type: 'new_task', key: 2, task: 'Print flyers', desc: 'A5', completed: false }],
        [ME, { type: 'new_task', key: 4, task: 'Book room', desc: 'again', completed: false }],
        [ME, { type: 'new_task', key: 5, task: 'Order cake', desc: '', completed: true }],
        [ME, { type: 'new_task', key: 1001, task: 'Too far', desc: '', completed: false }],
        [ME, { type: 'new_task', key: 6, task: 'No flag', desc: '' }],
      ]),
    );
    expect(tasks(state)).toEqual([
      '0,canned Write notes (by Friday)',
      '1,canned Book room',
      `2,${THIRD} Print flyers (A5)`,
      `5,${ME} Order cake ✓`,
    ]);
    // A key of one's own is never offered twice, as the reference counts them.
    expect(newTaskEvent(state, 'Sweep', 'floor')).toEqual({
      type: 'new_task',
      key: 7,
      task: 'Sweep',
      desc: 'floor',
      completed: false,
    });
  });

  it('turns a task over on every strike, from anyone', () => {
    const state = todo(
      todoMessage([
        [THIRD, { type: 'strike', key: '0,canned' }],
        [ME, { type: 'strike', key: '1,canned' }],
        [AUTHOR, { type: 'strike', key: '1,canned' }],
        [ME, { type: 'strike', key: '9,canned' }],
      ]),
    );
    expect(tasks(state)).toEqual(['0,canned Write notes (by Friday) ✓', '1,canned Book room']);
    expect(strikeEvent(state.tasks[0])).toEqual({ type: 'strike', key: '0,canned' });
  });

  it('lets only the list’s author rename it', () => {
    const state = todo(
      todoMessage([
        [ME, { type: 'new_task_list_title', title: 'Mine now' }],
        [AUTHOR, { type: 'new_task_list_title', title: 'Launch day' }],
        [AUTHOR, { type: 'new_task_list_title', title: 7 }],
      ]),
    );
    expect(state.title).toBe('Launch day');
  });

  it('ignores unknown and unreadable events', () => {
    const state = todo(
      todoMessage([
        [ME, { type: 'vote', key: '0,canned', vote: 1 }],
        [ME, 'not json'],
        [ME, { type: 'strike' }],
        [ME, { type: 'strike', key: '0,canned' }],
      ]),
    );
    expect(tasks(state)).toEqual(['0,canned Write notes (by Friday) ✓', '1,canned Book room']);
  });
});
