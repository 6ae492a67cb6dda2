/** Bindings for uploaded files. */
import type { ApiConnection } from '../connection';

/** POST /user_uploads: the file's server path (`/user_uploads/...`) in `url` (and `uri`). */
export function uploadFile(connection: ApiConnection, file: Blob, filename: string) {
  return connection.upload<{ url: string; uri?: string; filename?: string }>(
    '/user_uploads',
    file,
    filename,
  );
}

/**
 * GET /user_uploads/{realm_id}/{filename} under the API: a short-lived URL that needs no
 * credentials, for <img> and for opening a file in a new tab.
 */
export function temporaryUploadUrl(connection: ApiConnection, uploadPath: string) {
  return connection.request<{ url: string }>('GET', uploadPath);
}
