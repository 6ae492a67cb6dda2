/** Dates and times as the feed shows them, in the reader's time zone and interface language. */
import { currentLocale, i18n } from '../../i18n';

export function formatTime(timestamp: number, twentyFourHour: boolean): string {
  return new Date(timestamp * 1000).toLocaleTimeString(currentLocale(), {
    hour: 'numeric',
    minute: '2-digit',
    hour12: !twentyFourHour,
  });
}

export function formatFullDateTime(timestamp: number): string {
  return new Date(timestamp * 1000).toLocaleString(currentLocale(), {
    dateStyle: 'full',
    timeStyle: 'short',
  });
}

export function dayKey(timestamp: number): string {
  const date = new Date(timestamp * 1000);
  return `${date.getFullYear()}-${date.getMonth()}-${date.getDate()}`;
}

/** "Today", "Yesterday", or "Tue, Nov 18" (with the year when it is not this year). */
export function formatDay(timestamp: number, now: Date = new Date()): string {
  const date = new Date(timestamp * 1000);
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const startOfDay = new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
  const daysAgo = Math.round((startOfToday - startOfDay) / 86_400_000);
  if (daysAgo === 0) return i18n.t('common:today');
  if (daysAgo === 1) return i18n.t('common:yesterday');
  return date.toLocaleDateString(currentLocale(), {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: date.getFullYear() === now.getFullYear() ? undefined : 'numeric',
  });
}
