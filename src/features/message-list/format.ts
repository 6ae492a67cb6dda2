/** Dates and times as the feed shows them, in the reader's time zone and interface language. */
import { currentLocale, i18n } from '../../i18n';

/**
 * One formatter per language and style, made once: `toLocaleTimeString` with options builds a new
 * one at every call, which took a tenth of the first render of a conversation.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(style: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const locale = currentLocale();
  const key = `${locale}|${style}`;
  let made = formatters.get(key);
  if (!made) formatters.set(key, (made = new Intl.DateTimeFormat(locale, options)));
  return made;
}

export function formatTime(timestamp: number, twentyFourHour: boolean): string {
  const style = twentyFourHour ? 'time24' : 'time12';
  const options = { hour: 'numeric', minute: '2-digit', hour12: !twentyFourHour } as const;
  return formatter(style, options).format(timestamp * 1000);
}

export function formatFullDateTime(timestamp: number): string {
  return formatter('full', { dateStyle: 'full', timeStyle: 'short' }).format(timestamp * 1000);
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
  const thisYear = date.getFullYear() === now.getFullYear();
  return formatter(thisYear ? 'day' : 'day-year', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: thisYear ? undefined : 'numeric',
  }).format(date);
}
