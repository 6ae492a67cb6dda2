/**
 * Administration › Outgoing mail (a Parley extension, shown where the server offers it): the
 * organization's recent mail, newest first, with whether it was sent, is waiting or failed. Where
 * no mail server is configured, mail waits here, and an administrator opens one to pass its link
 * on by hand, as the reference's development server lists its mail.
 */
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors';
import type { OutgoingMail } from '../../api/extensions/mail-log';
import { EmptyState, ErrorState, LoadingState } from '../../components/StatePanel';
import { useMailLog } from '../../queries/admin';
import { formatMoment } from './users/format';

const URL_PATTERN = /(https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]])/;

/** A mail's plain text with its addresses as links; no markup from the mail is ever rendered. */
export function MailText({ text }: { text: string }) {
  const parts = text.split(URL_PATTERN);
  return (
    <pre className="admin-mail-text">
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <a key={i} href={part} target="_blank" rel="noopener noreferrer">
            {part}
          </a>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </pre>
  );
}

function StatusText({ mail }: { mail: OutgoingMail }) {
  const { t } = useTranslation('adminOrg');
  switch (mail.status) {
    case 'sent':
      return (
        <span className="admin-mail-status admin-mail-sent">
          {t('mail.status.sent', { time: formatMoment(mail.sent_at ?? mail.created_at) })}
        </span>
      );
    case 'failed':
      return (
        <span className="admin-mail-status admin-mail-failed">
          {t('mail.status.failed', { count: mail.attempts })}
        </span>
      );
    default:
      return (
        <span className="admin-mail-status admin-mail-waiting">
          {mail.attempts > 0
            ? t('mail.status.retrying', { count: mail.attempts })
            : t('mail.status.waiting')}
        </span>
      );
  }
}

function MailRow({ mail }: { mail: OutgoingMail }) {
  const { t } = useTranslation('adminOrg');
  const [open, setOpen] = useState(false);
  const bodyId = `admin-mail-${mail.id}`;
  return (
    <li className="admin-mail">
      <div className="admin-mail-head">
        <button
          type="button"
          className="link-button admin-mail-subject"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen(!open)}
        >
          {mail.subject}
        </button>
        <StatusText mail={mail} />
      </div>
      <p className="admin-mail-meta">
        {t('mail.meta', {
          to: mail.to,
          kind: t(`mail.kinds.${mail.kind}`, { defaultValue: mail.kind }),
          time: formatMoment(mail.created_at),
        })}
      </p>
      {mail.last_error && mail.status !== 'sent' && (
        <p className="admin-mail-error">{t('mail.lastError', { error: mail.last_error })}</p>
      )}
      {open && (
        <div id={bodyId}>
          <MailText text={mail.text} />
        </div>
      )}
    </li>
  );
}

export function MailSection() {
  const { t } = useTranslation('adminOrg');
  const log = useMailLog();
  if (log.isPending) return <LoadingState label={t('mail.loading')} />;
  if (log.isError)
    return (
      <ErrorState
        title={t('mail.failedToLoad')}
        message={errorText(log.error)}
        onRetry={() => void log.refetch()}
      />
    );
  const { mails, delivery_configured: configured } = log.data;
  return (
    <>
      <p className="admin-mail-intro">
        {configured === false ? t('mail.notConfigured') : t('mail.intro')}
      </p>
      {mails.length === 0 ? (
        <EmptyState title={t('mail.empty')} />
      ) : (
        <ul className="admin-mail-list" aria-label={t('mail.listLabel')}>
          {mails.map((mail) => (
            <MailRow key={mail.id} mail={mail} />
          ))}
        </ul>
      )}
    </>
  );
}
