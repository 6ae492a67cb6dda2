/**
 * A to-do list in place of its message: the title (its author may rename it), the tasks with a
 * checkbox anyone may tick, and fields to add a task with an optional description. A tick shows
 * at once and is confirmed by the server's event.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSendWidgetEvent } from '../../queries/submessages';
import {
  hasTask,
  newTaskEvent,
  strikeEvent,
  titleEvent,
  type TodoState,
  type TodoTask,
} from './todo';
import { EditableTitle, WidgetError } from './widget-parts';

interface TodoWidgetProps {
  messageId: number;
  todo: TodoState;
  isAuthor: boolean;
  readOnly: boolean;
}

export function TodoWidget({ messageId, todo, isAuthor, readOnly }: TodoWidgetProps) {
  const { t } = useTranslation('widgets');
  const titleId = useId();
  const { send, error, isPending } = useSendWidgetEvent(messageId);
  /** tasks ticked or unticked whose event has not come back yet, with the state they will have */
  const [pending, setPending] = useState<Record<string, boolean>>({});
  const [problem, setProblem] = useState<string | null>(null);

  /** Each strike turns the task over: a second tick before the first came back undoes it. */
  const strike = (task: TodoTask, shownCompleted: boolean) => {
    setProblem(null);
    setPending((was) => ({ ...was, [task.key]: !shownCompleted }));
    void send(strikeEvent(task)).then(() => setPending(({ [task.key]: _done, ...rest }) => rest));
  };

  return (
    <div className="widget widget-todo" role="group" aria-labelledby={titleId}>
      <EditableTitle
        id={titleId}
        text={todo.title ?? ''}
        fallback={t('todo.defaultTitle')}
        canEdit={isAuthor && !readOnly}
        editLabel={t('todo.editTitle')}
        inputLabel={t('todo.title')}
        saving={isPending}
        onSave={(text, done) => {
          setProblem(null);
          void send(titleEvent(text)).then((sent) => sent && done());
        }}
      />
      {todo.tasks.length === 0 && <p className="widget-empty">{t('todo.noTasks')}</p>}
      <ul className="todo-tasks">
        {todo.tasks.map((task, index) => {
          const completed = pending[task.key] ?? task.completed;
          const descId = `${titleId}-${index}`;
          return (
            <li key={task.key} className={completed ? 'todo-task todo-task-done' : 'todo-task'}>
              <label className="todo-task-label">
                <input
                  type="checkbox"
                  className="todo-check"
                  checked={completed}
                  aria-describedby={task.desc ? descId : undefined}
                  disabled={readOnly}
                  onChange={() => strike(task, completed)}
                />
                <span className="todo-task-name">{task.task}</span>
              </label>
              {task.desc && (
                <span id={descId} className="todo-task-desc">
                  {task.desc}
                </span>
              )}
            </li>
          );
        })}
      </ul>
      {!readOnly && (
        <AddTask
          onAdd={(task, desc, done) => {
            if (hasTask(todo, task)) {
              setProblem(t('todo.duplicate'));
              return;
            }
            setProblem(null);
            void send(newTaskEvent(todo, task, desc)).then((sent) => sent && done());
          }}
        />
      )}
      <WidgetError error={error} problem={problem} />
    </div>
  );
}

function AddTask({ onAdd }: { onAdd(task: string, desc: string, done: () => void): void }) {
  const { t } = useTranslation('widgets');
  const [task, setTask] = useState('');
  const [desc, setDesc] = useState('');
  const taskField = useRef<HTMLInputElement>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const name = task.trim();
    if (!name) return;
    onAdd(name, desc.trim(), () => {
      setTask('');
      setDesc('');
      taskField.current?.focus();
    });
  };
  return (
    <form className="widget-add" onSubmit={submit}>
      <input
        ref={taskField}
        className="text-input widget-input"
        aria-label={t('todo.newTask')}
        placeholder={t('todo.newTaskPlaceholder')}
        value={task}
        onChange={(event) => setTask(event.target.value)}
      />
      <input
        className="text-input widget-input"
        aria-label={t('todo.newTaskDescription')}
        placeholder={t('todo.newTaskDescriptionPlaceholder')}
        value={desc}
        onChange={(event) => setDesc(event.target.value)}
      />
      <button type="submit" className="button button-small" disabled={task.trim() === ''}>
        {t('todo.addTask')}
      </button>
    </form>
  );
}
