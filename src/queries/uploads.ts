/**
 * Uploaded files: the short-lived URLs that let an <img> or a new tab show one without
 * credentials. (Sending one, with its progress, is compose's: features/compose/use-uploads.ts.)
 */
import { queryOptions } from '@tanstack/react-query';
import type { ApiConnection } from '../api/connection';
import { getFileTemporaryUrl } from '../api/routes/messages';

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
