import { useTranslation } from 'react-i18next';
import type { LogoutReason } from './credentials';
import { deactivationAcknowledged } from './credentials';

export function DeactivatedScreen({ reason }: { reason: Exclude<LogoutReason, null> }) {
  const { t } = useTranslation('login');
  return (
    <main className="login-page">
      <div className="login-card" role="alert">
        <header className="login-header">
          <img className="login-icon" src="/favicon.svg" alt="" width={56} height={56} />
          <h1>{t(`deactivated.${reason}.title`)}</h1>
        </header>
        <p className="login-notice">{t(`deactivated.${reason}.body`)}</p>
        <button
          type="button"
          className="button button-primary login-submit"
          onClick={deactivationAcknowledged}
        >
          {t('deactivated.back')}
        </button>
      </div>
    </main>
  );
}
