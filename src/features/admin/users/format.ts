/** Dates in the administration lists, in the interface's language. */
import { currentLocale } from '../../../i18n';

/** A moment (seconds since the epoch) as a short date and time. */
export function formatMoment(seconds: number): string {
  return new Intl.DateTimeFormat(currentLocale(), {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(seconds * 1000));
}

/** How long ago, in words ("5 minutes ago", "vor 5 Minuten"), for recent moments. */
export function formatAgo(seconds: number, now = Date.now() / 1000): string {
  const diff = Math.max(0, now - seconds);
  const rtf = new Intl.RelativeTimeFormat(currentLocale(), { numeric: 'auto' });
  if (diff < 60) return rtf.format(0, 'second');
  if (diff < 3600) return rtf.format(-Math.floor(diff / 60), 'minute');
  if (diff < 86400) return rtf.format(-Math.floor(diff / 3600), 'hour');
  if (diff < 86400 * 30) return rtf.format(-Math.floor(diff / 86400), 'day');
  return formatMoment(seconds);
}
