/**
 * Bindings for the API documentation's "Server & organizations" section: the server's settings,
 * the organization's own settings, custom profile fields, linkifiers and custom emoji.
 */
import type { ApiConnection, Params } from '../connection';
import type { ServerSettings } from '../model';

/** GET /server_settings: https://zulip.com/api/get-server-settings (no authentication) */
export function getServerSettings(connection: ApiConnection) {
  return connection.request<ServerSettings>('GET', '/server_settings');
}

/**
 * PATCH /realm (no documentation page; the reference server's web app uses it): any subset of
 * the organization's settings, by their API names.
 */
export function updateRealm(connection: ApiConnection, changes: Params) {
  return connection.request<Record<string, unknown>>('PATCH', '/realm', changes);
}

export interface ProfileFieldChanges {
  name?: string;
  hint?: string;
  /** choices (type 3) or the external account kind (type 7) */
  field_data?: object;
  display_in_profile_summary?: boolean;
  required?: boolean;
  editable_by_user?: boolean;
}

/** POST /realm/profile_fields: https://zulip.com/api/create-custom-profile-field */
export function createCustomProfileField(
  connection: ApiConnection,
  field: ProfileFieldChanges & { field_type: number },
) {
  return connection.request<{ id: number }>('POST', '/realm/profile_fields', { ...field });
}

/** PATCH /realm/profile_fields/{field_id} (no documentation page) */
export function updateCustomProfileField(
  connection: ApiConnection,
  fieldId: number,
  changes: ProfileFieldChanges,
) {
  return connection.request<object>('PATCH', `/realm/profile_fields/${fieldId}`, { ...changes });
}

/**
 * PATCH /realm/profile_fields: https://zulip.com/api/reorder-custom-profile-fields
 * `order` holds every field's id, in the new order.
 */
export function reorderCustomProfileFields(connection: ApiConnection, order: readonly number[]) {
  return connection.request<object>('PATCH', '/realm/profile_fields', { order });
}

/** DELETE /realm/profile_fields/{field_id} (no documentation page) */
export function deleteCustomProfileField(connection: ApiConnection, fieldId: number) {
  return connection.request<object>('DELETE', `/realm/profile_fields/${fieldId}`);
}

export interface LinkifierInput {
  pattern: string;
  url_template: string;
}

/** POST /realm/filters: https://zulip.com/api/add-linkifier */
export function addLinkifier(connection: ApiConnection, linkifier: LinkifierInput) {
  return connection.request<{ id: number }>('POST', '/realm/filters', { ...linkifier });
}

/** PATCH /realm/filters/{filter_id}: https://zulip.com/api/update-linkifier */
export function updateLinkifier(
  connection: ApiConnection,
  filterId: number,
  linkifier: LinkifierInput,
) {
  return connection.request<object>('PATCH', `/realm/filters/${filterId}`, { ...linkifier });
}

/** DELETE /realm/filters/{filter_id}: https://zulip.com/api/remove-linkifier */
export function removeLinkifier(connection: ApiConnection, filterId: number) {
  return connection.request<object>('DELETE', `/realm/filters/${filterId}`);
}

/** POST /realm/emoji/{emoji_name}: https://zulip.com/api/upload-custom-emoji (multipart) */
export function uploadCustomEmoji(connection: ApiConnection, name: string, file: Blob) {
  const filename = file instanceof File ? file.name : name;
  return connection.upload<object>(`/realm/emoji/${encodeURIComponent(name)}`, file, filename);
}

/**
 * DELETE /realm/emoji/{emoji_name}: https://zulip.com/api/deactivate-custom-emoji
 * Old messages still show a deactivated emoji.
 */
export function deactivateCustomEmoji(connection: ApiConnection, name: string) {
  return connection.request<object>('DELETE', `/realm/emoji/${encodeURIComponent(name)}`);
}
