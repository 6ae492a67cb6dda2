/** The logged-in account, kept in localStorage so that a reload stays logged in. */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';

export interface StoredAccount {
  email: string;
  apiKey: string;
  userId: number;
}

export type LogoutReason = 'USER_DEACTIVATED' | 'REALM_DEACTIVATED' | 'INVALID_API_KEY' | null;

interface AuthState {
  account: StoredAccount | null;
  /** reading web-public channels without an account (for this browser tab) */
  spectating: boolean;
  /**
   * The visitor chose to log in (for this browser tab), so a link to a web-public conversation
   * shows the login rather than opening for reading again.
   */
  loginChosen: boolean;
  /** the address the visitor followed needs an account: the login says so */
  linkNeedsAccount: boolean;
  /** why the last session ended, when the user did not ask for it */
  endedBecause: LogoutReason;
}

const STORAGE_KEY = 'parley.account';

function readStoredAccount(): StoredAccount | null {
  try {
    const parsed = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as StoredAccount | null;
    return parsed && typeof parsed.email === 'string' && typeof parsed.apiKey === 'string'
      ? parsed
      : null;
  } catch {
    return null;
  }
}

const SPECTATING_KEY = 'parley.spectating';

/** '1' browsing, '0' chose to log in, nothing: neither yet. */
function readSpectating(): string | null {
  try {
    return sessionStorage.getItem(SPECTATING_KEY);
  } catch {
    return null;
  }
}

function storeSpectating(value: '1' | '0' | null) {
  try {
    if (value) sessionStorage.setItem(SPECTATING_KEY, value);
    else sessionStorage.removeItem(SPECTATING_KEY);
  } catch {
    // without storage, browsing lasts until the page is reloaded
  }
}

const authStore = createStore<AuthState>()(() => ({
  account: readStoredAccount(),
  spectating: readSpectating() === '1',
  loginChosen: readSpectating() === '0',
  linkNeedsAccount: false,
  endedBecause: null,
}));

export function loggedIn(account: StoredAccount): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(account));
  storeSpectating(null);
  authStore.setState({
    account,
    spectating: false,
    loginChosen: false,
    linkNeedsAccount: false,
    endedBecause: null,
  });
}

/** Browse the organization's web-public channels without logging in. */
export function startSpectating(): void {
  storeSpectating('1');
  authStore.setState({ spectating: true, loginChosen: false, linkNeedsAccount: false });
}

/**
 * Back to the login screen from browsing, at the same address, so that logging in opens what
 * was on screen; `linkNeedsAccount` when the address is one a visitor cannot read.
 */
export function stopSpectating(linkNeedsAccount = false): void {
  storeSpectating('0');
  authStore.setState({ spectating: false, loginChosen: true, linkNeedsAccount });
}

export function loggedOut(reason: LogoutReason = null): void {
  localStorage.removeItem(STORAGE_KEY);
  authStore.setState({ account: null, endedBecause: reason });
}

export function deactivationAcknowledged(): void {
  authStore.setState({ endedBecause: null });
}

export const useStoredAccount = () => useStore(authStore, (s) => s.account);
/** The logged-in account now, outside React (at the page's start). */
export const currentAccount = () => authStore.getState().account;
export const useLogoutReason = () => useStore(authStore, (s) => s.endedBecause);
export const useSpectating = () => useStore(authStore, (s) => s.spectating);
export const useLoginChosen = () => useStore(authStore, (s) => s.loginChosen);
export const useLinkNeedsAccount = () => useStore(authStore, (s) => s.linkNeedsAccount);
