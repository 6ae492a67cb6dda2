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

const authStore = createStore<AuthState>()(() => ({
  account: readStoredAccount(),
  endedBecause: null,
}));

export function loggedIn(account: StoredAccount): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(account));
  authStore.setState({ account, endedBecause: null });
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
