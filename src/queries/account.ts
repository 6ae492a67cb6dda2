/** Before a session exists: what the organization offers, and logging in. */
import { queryOptions, useMutation } from '@tanstack/react-query';
import type { ApiConnection } from '../api/connection';
import { fetchApiKey } from '../api/routes/authentication';
import { getServerSettings } from '../api/routes/server-and-organizations';

export const accountKeys = {
  serverSettings: ['server_settings'] as const,
};

export function serverSettingsQuery(connection: ApiConnection) {
  return queryOptions({
    queryKey: accountKeys.serverSettings,
    queryFn: () => getServerSettings(connection),
    retry: 1,
  });
}

export interface LoginCredentials {
  email: string;
  password: string;
}

/** Trades an email and password for an API key. */
export function useLogIn(connection: ApiConnection) {
  return useMutation({
    mutationFn: ({ email, password }: LoginCredentials) =>
      fetchApiKey(connection, { username: email.trim(), password }),
  });
}
