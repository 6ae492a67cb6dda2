/** Times offered for scheduling, and the conversation a scheduled message goes to. */
import type { ScheduledMessage } from '../../api/model';
import { dmParticipants } from '../../narrow';
import type { OutboxDestination } from '../../model/outbox';

export type QuickChoice =
  | { kind: 'inHour'; at: Date }
  | { kind: 'todayAt'; at: Date }
  | { kind: 'tomorrowAt'; at: Date }
  | { kind: 'mondayAt'; at: Date };

function at(day: Date, hours: number): Date {
  const date = new Date(day);
  date.setHours(hours, 0, 0, 0);
  return date;
}

/**
 * As the reference app offers: in an hour, this afternoon if it is still morning, tomorrow
 * morning and afternoon, and next Monday morning unless that is tomorrow.
 */
export function quickChoices(now: Date): QuickChoice[] {
  const choices: QuickChoice[] = [{ kind: 'inHour', at: new Date(now.getTime() + 3600_000) }];
  const afternoon = at(now, 16);
  if (now.getHours() < 12) choices.push({ kind: 'todayAt', at: afternoon });
  const tomorrow = new Date(now);
  tomorrow.setDate(now.getDate() + 1);
  choices.push({ kind: 'tomorrowAt', at: at(tomorrow, 9) });
  choices.push({ kind: 'tomorrowAt', at: at(tomorrow, 16) });
  const monday = new Date(now);
  monday.setDate(now.getDate() + ((8 - now.getDay()) % 7 || 7));
  if (monday.getDay() === 1 && tomorrow.getDay() !== 1)
    choices.push({ kind: 'mondayAt', at: at(monday, 9) });
  return choices;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The value of a datetime-local input for a time (in this browser's time zone). */
export function toInputValue(date: Date): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/** The time a datetime-local input's value names, or null when it names none. */
export function fromInputValue(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, sec] = match.map(Number);
  const date = new Date(y, mo - 1, d, h, mi, sec || 0, 0);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Whether a scheduled message goes to the conversation compose is writing to. */
export function scheduledFor(
  message: ScheduledMessage,
  destination: OutboxDestination | null,
  ownUserId: number,
): boolean {
  if (!destination) return false;
  if (destination.type === 'stream')
    return (
      message.type === 'stream' &&
      message.to === destination.streamId &&
      (message.topic ?? '').toLowerCase() === destination.topic.toLowerCase()
    );
  if (message.type !== 'private') return false;
  const to = Array.isArray(message.to) ? message.to : [message.to];
  return (
    dmParticipants(to, ownUserId).join(',') ===
    dmParticipants(destination.userIds, ownUserId).join(',')
  );
}
