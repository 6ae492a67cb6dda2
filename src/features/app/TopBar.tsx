import { useTranslation } from 'react-i18next';
import { Link } from '../../components/Link';
import { LogoutIcon, MenuIcon, PeopleIcon, SettingsIcon } from '../../components/icons';
import { useRealmIconUrl, useRealmName } from '../../model/hooks';
import { ShortcutsButton } from '../keyboard/ShortcutsButton';
import { loggedOut, stopSpectating } from '../login/credentials';
import { SearchBox } from '../search/SearchBox';
import { useSession } from '../../model/session-context';

interface TopBarProps {
  leftOpen: boolean;
  rightOpen: boolean;
  onToggleLeft(): void;
  onToggleRight(): void;
}

export function TopBar({ leftOpen, rightOpen, onToggleLeft, onToggleRight }: TopBarProps) {
  const realmName = useRealmName();
  const iconUrl = useRealmIconUrl();
  const session = useSession();
  const spectator = session.spectator;
  const { t } = useTranslation();

  const logOut = () => {
    void session.logOut();
    loggedOut();
  };

  return (
    <header className="topbar">
      <button
        type="button"
        className="icon-button topbar-menu"
        aria-label={t('topbar.channelsAndViews')}
        aria-expanded={leftOpen}
        aria-controls="left-sidebar"
        onClick={onToggleLeft}
      >
        <MenuIcon />
      </button>
      {/* Named for a phone too, where the organization's name is hidden beside its icon. */}
      <Link className="topbar-realm" to="/inbox" aria-label={realmName || undefined}>
        <img src={iconUrl ?? '/favicon.svg'} alt="" width={28} height={28} />
        <span>{realmName}</span>
      </Link>
      {/* Search and people need an account: a visitor reads channel by channel. */}
      {!spectator && <SearchBox />}
      {!spectator && (
        <button
          type="button"
          className="icon-button"
          aria-label={rightOpen ? t('topbar.hidePeople') : t('topbar.showPeople')}
          aria-expanded={rightOpen}
          aria-controls="right-sidebar"
          onClick={onToggleRight}
        >
          <PeopleIcon />
        </button>
      )}
      {spectator ? (
        <button
          type="button"
          className="button button-primary topbar-login"
          onClick={() => stopSpectating()}
        >
          {t('logIn')}
        </button>
      ) : (
        <>
          <ShortcutsButton />
          <Link
            className="icon-button"
            to="/settings"
            aria-label={t('topbar.settings')}
            title={t('topbar.settings')}
          >
            <SettingsIcon />
          </Link>
          <button
            type="button"
            className="icon-button"
            aria-label={t('logOut')}
            title={t('logOut')}
            onClick={logOut}
          >
            <LogoutIcon />
          </button>
        </>
      )}
    </header>
  );
}
