/** Bindings for login and server discovery. */
import type { ApiConnection } from '../connection';
import type { ApiKeyResponse, ServerSettings } from '../model';

/** POST /fetch_api_key */
export function fetchApiKey(
  connection: ApiConnection,
  options: { username: string; password: string },
) {
  return connection.request<ApiKeyResponse>('POST', '/fetch_api_key', options);
}

/** GET /server_settings (no authentication) */
export function getServerSettings(connection: ApiConnection) {
  return connection.request<ServerSettings>('GET', '/server_settings');
}
