/** Bindings for the API documentation's "Drafts" section: drafts kept on the server. */
import type { ApiConnection } from '../connection';
import type { Draft } from '../model';

/** GET /drafts: https://zulip.com/api/get-drafts */
export function getDrafts(connection: ApiConnection) {
  return connection.request<{ count: number; drafts: Draft[] }>('GET', '/drafts');
}

/** POST /drafts: https://zulip.com/api/create-drafts */
export function createDrafts(connection: ApiConnection, options: { drafts: Omit<Draft, 'id'>[] }) {
  return connection.request<{ ids: number[] }>('POST', '/drafts', options);
}

/** PATCH /drafts/{draft_id}: https://zulip.com/api/edit-draft */
export function editDraft(
  connection: ApiConnection,
  draftId: number,
  options: { draft: Omit<Draft, 'id'> },
) {
  return connection.request<object>('PATCH', `/drafts/${draftId}`, options);
}

/** DELETE /drafts/{draft_id}: https://zulip.com/api/delete-draft */
export function deleteDraft(connection: ApiConnection, draftId: number) {
  return connection.request<object>('DELETE', `/drafts/${draftId}`);
}
