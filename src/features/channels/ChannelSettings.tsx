/**
 * One channel's settings, `/channels/<id>/<tab>`: the person's own settings for it (subscribers
 * only), its general settings (editable by those who administer it, read-only for the rest), and
 * its subscribers. Stream and subscription events keep every tab current while it is open.
 */
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { Link } from '../../components/Link';
import { EmptyState } from '../../components/StatePanel';
import { LockIcon } from '../../components/icons';
import { useStream, useSubscription } from '../../model/hooks';
import { narrowToUrl, streamNarrow, viewToUrl } from '../../narrow';
import { CHANNEL_SETTINGS_TABS, channelSettingsUrl } from './channel-settings-url';
import { GeneralTab } from './GeneralTab';
import { PersonalTab } from './PersonalTab';
import { SubscribersTab } from './SubscribersTab';

const TABS = CHANNEL_SETTINGS_TABS;

export function ChannelSettings({ streamId, tab }: { streamId: number; tab: string | undefined }) {
  const { t } = useTranslation('channels');
  const stream = useStream(streamId);
  const subscription = useSubscription(streamId);
  if (!stream || stream.is_archived)
    return (
      <div className="view-scroll">
        <EmptyState title={t('settings.goneTitle')}>
          {t('settings.goneMessage')} <Link to={viewToUrl('channels')}>{t('settings.all')}</Link>
        </EmptyState>
      </div>
    );
  const tabs = TABS.filter((name) => name !== 'personal' || subscription);
  const open = tabs.find((name) => name === tab);
  if (!open) return <Navigate to={channelSettingsUrl(streamId, tabs[0])} replace />;

  return (
    <section className="view-page" aria-labelledby="channel-settings-title">
      <header className="narrow-header channel-settings-header">
        <div className="narrow-titles">
          <Link className="channel-settings-back" to={viewToUrl('channels')}>
            {t('settings.all')}
          </Link>
          <h1 id="channel-settings-title" className="channel-settings-title">
            {stream.invite_only ? <LockIcon /> : <span aria-hidden="true">#</span>}
            {t('settings.title', { name: stream.name })}
          </h1>
        </div>
        <Link className="button button-small" to={narrowToUrl(streamNarrow(streamId), stream.name)}>
          {t('settings.openChannel')}
        </Link>
      </header>
      <div className="view-scroll">
        <nav className="channel-tabs" aria-label={t('settings.tabs')}>
          {tabs.map((name) => (
            <Link
              key={name}
              to={channelSettingsUrl(streamId, name)}
              className="channel-tab"
              aria-current={name === open ? 'page' : undefined}
            >
              {t(`tabs.${name}`)}
            </Link>
          ))}
        </nav>
        <div className="settings-view channel-settings">
          {open === 'personal' && subscription && <PersonalTab subscription={subscription} />}
          {open === 'general' && <GeneralTab stream={subscription ?? stream} />}
          {open === 'subscribers' && <SubscribersTab stream={subscription ?? stream} />}
        </div>
      </div>
    </section>
  );
}
