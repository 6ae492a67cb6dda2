/**
 * A to-do list's state: its canned tasks and the events people sent since, folded in submessage
 * order with the reference web app's rules (web/src/todo_widget.ts). Events the rules refuse, or
 * cannot read, change nothing.
 */
import type { WidgetEvent } from './widget-event';

export interface TodoTask {
  /** `<i>,canned` for the tasks the list was created with, `<idx>,<sender id>` for added ones */
  key: string;
  task: string;
  desc: string;
  completed: boolean;
}

export interface TodoState {
  /** null: the list has no title of its own, and shows a default one */
  title: string | null;
  tasks: TodoTask[];
  /** the key the own user's next new task takes */
  nextOwnKey: number;
}

export interface TodoSetup {
  title: string | null;
  tasks: { task: string; desc: string }[];
}

/** Tasks per person are bounded, as in the reference. */
const MAX_IDX = 1000;

export function foldTodo(
  setup: TodoSetup,
  events: readonly WidgetEvent[],
  authorId: number,
  ownUserId: number,
): TodoState {
  const tasks = new Map<string, TodoTask>();
  let title = setup.title || null;
  // As the reference counts: its next task takes one more than this.
  let ownIdx = 1;

  const addTask = (sender: number | 'canned', data: Record<string, unknown>) => {
    const { key: idx, task, desc, completed } = data;
    if (typeof idx !== 'number' || !Number.isInteger(idx) || idx < 0 || idx > MAX_IDX) return;
    if (typeof task !== 'string' || typeof desc !== 'string' || typeof completed !== 'boolean')
      return;
    const key = `${idx},${sender}`;
    if (![...tasks.values()].some((t) => t.task === task))
      tasks.set(key, { key, task, desc, completed });
    // Seen even when the name was taken: the same idx is not offered again.
    if (sender === ownUserId && ownIdx <= idx) ownIdx = idx + 1;
  };

  setup.tasks.forEach(({ task, desc }, i) =>
    addTask('canned', { key: i, task, desc, completed: false }),
  );

  for (const { senderId, data } of events) {
    switch (data.type) {
      case 'new_task':
        addTask(senderId, data);
        break;
      case 'strike': {
        const task = typeof data.key === 'string' ? tasks.get(data.key) : undefined;
        if (task) tasks.set(task.key, { ...task, completed: !task.completed });
        break;
      }
      case 'new_task_list_title':
        if (typeof data.title === 'string' && senderId === authorId) title = data.title;
        break;
    }
  }

  return { title, tasks: [...tasks.values()], nextOwnKey: ownIdx + 1 };
}

export function newTaskEvent(todo: TodoState, task: string, desc: string) {
  return { type: 'new_task', key: todo.nextOwnKey, task, desc, completed: false };
}

/** Anyone may tick or untick any task: each strike turns it over. */
export function strikeEvent(task: TodoTask) {
  return { type: 'strike', key: task.key };
}

export function titleEvent(title: string) {
  return { type: 'new_task_list_title', title };
}

export function hasTask(todo: TodoState, name: string): boolean {
  return todo.tasks.some((t) => t.task === name);
}
