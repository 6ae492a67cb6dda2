/** Bindings for the personal settings beyond PATCH /settings: alert words and leaving. */
import type { ApiConnection } from '../connection';

/** POST /users/me/alert_words: adds words; the response lists all of them. */
export function addAlertWords(connection: ApiConnection, words: string[]) {
  return connection.request<{ alert_words: string[] }>('POST', '/users/me/alert_words', {
    alert_words: words,
  });
}

/** DELETE /users/me/alert_words: removes words; the response lists those left. */
export function removeAlertWords(connection: ApiConnection, words: string[]) {
  return connection.request<{ alert_words: string[] }>('DELETE', '/users/me/alert_words', {
    alert_words: words,
  });
}

/** PATCH /settings with `email`: the server mails a confirmation link to the new address. */
export function requestEmailChange(connection: ApiConnection, email: string) {
  return connection.request<object>('PATCH', '/settings', { email });
}

/** DELETE /users/me: deactivates the own account (refused for the last owner or user). */
export function deactivateOwnAccount(connection: ApiConnection) {
  return connection.request<object>('DELETE', '/users/me');
}
