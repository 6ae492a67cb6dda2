import { Link } from '../../components/Link';
import { formatFullDateTime } from './format';
import { useFixedT } from '../../i18n/use-fixed-t';

/**
 * A message's time, linking to the message itself (its permalink, as in the reference app); a
 * message still being sent has no permalink yet, so its time is plain.
 */
export function MessageTime({
  timestamp,
  time,
  permalink,
  className,
}: {
  timestamp: number;
  /** the time as shown (the reader's clock) */
  time: string;
  permalink: string | null;
  className?: string;
}) {
  const t = useFixedT('messages');
  const element = (
    <time
      className={permalink ? undefined : className}
      dateTime={new Date(timestamp * 1000).toISOString()}
      title={formatFullDateTime(timestamp)}
    >
      {time}
    </time>
  );
  if (!permalink) return element;
  return (
    <Link
      to={permalink}
      className={className ? `${className} message-time-link` : 'message-time-link'}
      aria-label={t('time.permalink', { time })}
    >
      {element}
    </Link>
  );
}
