/**
 * Bindings for the organization's own settings and collections: PATCH /realm, custom profile
 * fields, linkifiers and custom emoji.
 */
import type { ApiConnection, Params } from '../connection';

/** PATCH /realm: any subset of the organization's settings, by their API names. */
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

/** POST /realm/profile_fields */
export function createProfileField(
  connection: ApiConnection,
  field: ProfileFieldChanges & { field_type: number },
) {
  return connection.request<{ id: number }>('POST', '/realm/profile_fields', { ...field });
}

/** PATCH /realm/profile_fields/{field_id} */
export function updateProfileField(
  connection: ApiConnection,
  fieldId: number,
  changes: ProfileFieldChanges,
) {
  return connection.request<object>('PATCH', `/realm/profile_fields/${fieldId}`, { ...changes });
}

/** PATCH /realm/profile_fields: every field's id, in the new order. */
export function reorderProfileFields(connection: ApiConnection, order: readonly number[]) {
  return connection.request<object>('PATCH', '/realm/profile_fields', { order });
}

/** DELETE /realm/profile_fields/{field_id} */
export function deleteProfileField(connection: ApiConnection, fieldId: number) {
  return connection.request<object>('DELETE', `/realm/profile_fields/${fieldId}`);
}

export interface LinkifierInput {
  pattern: string;
  url_template: string;
}

/** POST /realm/filters */
export function addLinkifier(connection: ApiConnection, linkifier: LinkifierInput) {
  return connection.request<{ id: number }>('POST', '/realm/filters', { ...linkifier });
}

/** PATCH /realm/filters/{filter_id} */
export function updateLinkifier(
  connection: ApiConnection,
  filterId: number,
  linkifier: LinkifierInput,
) {
  return connection.request<object>('PATCH', `/realm/filters/${filterId}`, { ...linkifier });
}

/** DELETE /realm/filters/{filter_id} */
export function deleteLinkifier(connection: ApiConnection, filterId: number) {
  return connection.request<object>('DELETE', `/realm/filters/${filterId}`);
}

/** POST /realm/emoji/{emoji_name}: the image as a multipart upload. */
export function uploadRealmEmoji(connection: ApiConnection, name: string, file: Blob) {
  const filename = file instanceof File ? file.name : name;
  return connection.upload<object>(`/realm/emoji/${encodeURIComponent(name)}`, file, filename);
}

/** DELETE /realm/emoji/{emoji_name}: deactivates it (old messages still show it). */
export function deactivateRealmEmoji(connection: ApiConnection, name: string) {
  return connection.request<object>('DELETE', `/realm/emoji/${encodeURIComponent(name)}`);
}
