/** Bindings for the API documentation's authentication endpoints. */
import type { ApiConnection } from '../connection';
import type { ApiKeyResponse } from '../model';

/** POST /fetch_api_key: https://zulip.com/api/fetch-api-key */
export function fetchApiKey(
  connection: ApiConnection,
  options: { username: string; password: string },
) {
  return connection.request<ApiKeyResponse>('POST', '/fetch_api_key', options);
}
