/**
 * Uploaded files: sending one, and the short-lived URLs that let an <img> or a new tab show one
 * without credentials.
 */
import { queryOptions, useMutation } from '@tanstack/react-query';
import type { ApiConnection } from '../api/connection';
import { getFileTemporaryUrl, uploadFile } from '../api/routes/messages';
import { useSessionCore } from '../model/session-core';

/** Temporary URLs last a minute; reuse one for a little less. */
const REUSE_MS = 45_000;

export const uploadKeys = {
  all: ['uploads'] as const,
  temporaryUrl: (path: string) => [...uploadKeys.all, 'temporary-url', path] as const,
};

export function temporaryUrlQuery(connection: ApiConnection, path: string) {
  return queryOptions({
    queryKey: uploadKeys.temporaryUrl(path),
    queryFn: async () => (await getFileTemporaryUrl(connection, path)).url,
    staleTime: REUSE_MS,
    gcTime: REUSE_MS,
    retry: false,
  });
}

/** Uploads one file; the answer is its server path, to link from a message. */
export function useUploadFile() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: async (file: File) => (await uploadFile(connection, file, file.name)).url,
  });
}
