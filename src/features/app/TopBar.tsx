import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { LogoutIcon, MenuIcon, PeopleIcon, SearchIcon, SettingsIcon } from '../../components/icons';
import { useRealmIconUrl, useRealmName } from '../../model/hooks';
import { narrowToUrl, searchNarrow } from '../../narrow';
import { ShortcutsButton } from '../keyboard/ShortcutsButton';
import { loggedOut, stopSpectating } from '../login/credentials';
import { useSession } from './session-context';

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
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const spectator = session.spectator;

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = query.trim();
    if (trimmed) navigate(narrowToUrl(searchNarrow(trimmed)));
  };

  const logOut = () => {
    session.stop(true);
    loggedOut();
  };

  return (
    <header className="topbar">
      <button
        type="button"
        className="icon-button topbar-menu"
        aria-label="Channels and views"
        aria-expanded={leftOpen}
        aria-controls="left-sidebar"
        onClick={onToggleLeft}
      >
        <MenuIcon />
      </button>
      <Link className="topbar-realm" to="/inbox">
        <img src={iconUrl ?? '/favicon.svg'} alt="" width={28} height={28} />
        <span>{realmName}</span>
      </Link>
      {/* Search and people need an account: a visitor reads channel by channel. */}
      {!spectator && (
        <form className="topbar-search" role="search" onSubmit={onSearch}>
          <label htmlFor="search-input" className="visually-hidden">
            Search messages
          </label>
          <SearchIcon />
          <input
            id="search-input"
            type="search"
            placeholder="Search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            autoComplete="off"
          />
        </form>
      )}
      {!spectator && (
        <button
          type="button"
          className="icon-button"
          aria-label={rightOpen ? 'Hide people' : 'Show people'}
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
          onClick={stopSpectating}
        >
          Log in
        </button>
      ) : (
        <>
          <ShortcutsButton />
          <Link className="icon-button" to="/settings" aria-label="Settings" title="Settings">
            <SettingsIcon />
          </Link>
          <button
            type="button"
            className="icon-button"
            aria-label="Log out"
            title="Log out"
            onClick={logOut}
          >
            <LogoutIcon />
          </button>
        </>
      )}
    </header>
  );
}
