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

function readSpectating(): boolean {
  try {
    return sessionStorage.getItem(SPECTATING_KEY) === '1';
  } catch {
    return false;
  }
}

function storeSpectating(on: boolean) {
  try {
    if (on) sessionStorage.setItem(SPECTATING_KEY, '1');
    else sessionStorage.removeItem(SPECTATING_KEY);
  } catch {
    // without storage, browsing lasts until the page is reloaded
  }
}

const authStore = createStore<AuthState>()(() => ({
  account: readStoredAccount(),
  spectating: readSpectating(),
  endedBecause: null,
}));

export function loggedIn(account: StoredAccount): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(account));
  storeSpectating(false);
  authStore.setState({ account, spectating: false, endedBecause: null });
}

/** Browse the organization's web-public channels without logging in. */
export function startSpectating(): void {
  storeSpectating(true);
  authStore.setState({ spectating: true });
}

/** Back to the login screen from browsing. */
export function stopSpectating(): void {
  storeSpectating(false);
  authStore.setState({ spectating: false });
}

export function loggedOut(reason: LogoutReason = null): void {
  localStorage.removeItem(STORAGE_KEY);
  authStore.setState({ account: null, endedBecause: reason });
}

export function deactivationAcknowledged(): void {
  authStore.setState({ endedBecause: null });
}

export const useStoredAccount = () => useStore(authStore, (s) => s.account);
export const useLogoutReason = () => useStore(authStore, (s) => s.endedBecause);
export const useSpectating = () => useStore(authStore, (s) => s.spectating);
