import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Attachment, Realm, User } from '../db/schema.js';
import { badRequest } from '../domain/errors.js';
import type { StoredFile } from '../domain/file-store.js';
import { fileNotFound, incomingDir, uploadKey } from '../lib/upload-files.js';

/**
 * Uploaded files, as Zulip stores them: `/user_uploads/<realm>/<2 hex>/<24 random>/<name>`. Who
 * may read one is decided in lib/upload-access.ts: the uploader, and readers of messages that claim it.
 */

export const MAX_FILE_UPLOAD_MIB = 25;
export const MAX_FILE_UPLOAD_BYTES = MAX_FILE_UPLOAD_MIB * 1024 * 1024;
/** Most Linux filesystems limit a path component to 255 bytes. */
const MAX_FILE_NAME_BYTES = 255;

/** A file the HTTP layer has received into a temporary path. */
export interface IncomingFile {
  tmpPath: string;
  /** the name the client gave (already stripped of directories) */
  filename: string;
  /** the content type the client gave, or guessed from the name */
  contentType: string;
  size: number;
  /** more bytes arrived than the upload limit; the temporary file holds only a prefix */
  tooLarge: boolean;
}

const EXTENSION_TYPES: Record<string, string> = {
  '.apng': 'image/apng',
  '.avif': 'image/avif',
  '.bmp': 'image/bmp',
  '.gif': 'image/gif',
  '.jpe': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.json': 'application/json',
  '.txt': 'text/plain',
  '.log': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.xml': 'text/xml',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.py': 'text/x-python',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.wav': 'audio/wav',
  '.flac': 'audio/flac',
  '.weba': 'audio/webm',
  '.aac': 'audio/aac',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
};

/** Types a browser may show in place; anything else is served as a download. (No SVG: it can hold script.) */
const INLINE_TYPES = new Set([
  'application/pdf',
  'audio/aac',
  'audio/flac',
  'audio/mp4',
  'audio/mpeg',
  'audio/wav',
  'audio/webm',
  'image/apng',
  'image/avif',
  'image/gif',
  'image/jpeg',
  'image/png',
  'image/webp',
  'text/plain',
  'video/mp4',
  'video/webm',
]);

const CONTENT_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

export function guessContentType(filename: string): string | undefined {
  return EXTENSION_TYPES[path.extname(filename).toLowerCase()];
}

/**
 * The type to store: the client's when it is a well-formed one, else a guess from the name.
 * Multipart parts without a type arrive as text/plain (the form-data default), so a name that says
 * otherwise wins over text/plain and application/octet-stream, as the real server guesses too.
 */
export function uploadContentType(claimed: string, filename: string): string {
  const type = claimed.trim().toLowerCase();
  const guess = guessContentType(filename);
  if (!CONTENT_TYPE.test(type)) return guess ?? 'application/octet-stream';
  if ((type === 'text/plain' || type === 'application/octet-stream') && guess) return guess;
  return type;
}

/**
 * A name safe in a path and a URL, as Zulip's sanitize_name: NFKC, only letters, digits, marks,
 * '_', '.', '-' and whitespace kept, runs of '-' and whitespace made one '-', at most 255 bytes
 * (keeping the extension), and never empty, '.' or '..'.
 */
export function sanitizeFilename(name: string): string {
  let value = name
    .normalize('NFKC')
    .replace(/[^\p{L}\p{M}\p{N}_\s.-]/gu, '')
    .trim();
  value = value.replace(/[-\s]+/gu, '-');
  value = truncateUtf8(value, MAX_FILE_NAME_BYTES);
  return value === '' || value === '.' || value === '..' ? 'uploaded-file' : value;
}

function truncateUtf8(name: string, maxBytes: number): string {
  if (Buffer.byteLength(name) <= maxBytes) return name;
  let ext = path.extname(name);
  let stem = name.slice(0, name.length - ext.length);
  if (Buffer.byteLength(ext) >= maxBytes) [stem, ext] = [name, ''];
  let room = maxBytes - Buffer.byteLength(ext);
  let out = '';
  for (const ch of stem) {
    room -= Buffer.byteLength(ch);
    if (room < 0) break;
    out += ch;
  }
  return out + ext;
}

function randomPathId(realmId: number, name: string): string {
  const shard = crypto.randomBytes(1).toString('hex');
  const token = crypto.randomBytes(18).toString('base64url');
  return `${realmId}/${shard}/${token}/${sanitizeFilename(name)}`;
}

export const fileTooLarge = (mib: number) =>
  badRequest(`Uploaded file is larger than the allowed limit of ${mib} MiB`);

/** POST /user_uploads */
export async function uploadFile(ctx: AppContext, realm: Realm, user: User, files: IncomingFile[]) {
  if (files.length === 0) throw badRequest('You must specify a file to upload');
  if (files.length > 1) throw badRequest('You may only upload one file at a time');
  const file = files[0]!;
  if (file.tooLarge || file.size > MAX_FILE_UPLOAD_BYTES) throw fileTooLarge(MAX_FILE_UPLOAD_MIB);
  const pathId = randomPathId(realm.id, file.filename);
  const key = uploadKey(pathId);
  if (!key) throw badRequest('Invalid file name');
  // The file is stored before the row that promises it exists.
  await ctx.files.put(key, file.tmpPath);
  // PostgreSQL cannot store NUL in text; the real server drops it from the name too.
  const filename = file.filename.replace(/\u0000/g, '');
  try {
    const floor = await ctx.db
      .selectFrom('messages')
      .select((eb) => eb.fn.max('id').as('max'))
      .executeTakeFirst();
    await ctx.db
      .insertInto('attachments')
      .values({
        realm_id: realm.id,
        owner_id: user.id,
        path_id: pathId,
        file_name: filename,
        size: file.size,
        content_type: uploadContentType(file.contentType, file.filename),
        create_time: Math.floor(Date.now() / 1000),
        message_id_floor: Number(floor?.max ?? 0),
      })
      .execute();
  } catch (err) {
    // The row's failure is the one to report; a file left behind is unreachable, and harmless.
    await ctx.files.remove(key).catch(() => {});
    throw err;
  }
  const url = `/user_uploads/${pathId}`;
  return { uri: url, url, filename };
}

export interface ServedFile {
  stored: StoredFile;
  contentType: string;
  /** false: may be shown in the browser; true: download only */
  attachment: boolean;
  /** the name for Content-Disposition */
  downloadName: string;
}

export async function servedFile(ctx: AppContext, attachment: Attachment): Promise<ServedFile> {
  const key = uploadKey(attachment.path_id);
  const stored = key ? await ctx.files.get(key) : null;
  if (!stored) throw fileNotFound();
  const bare = attachment.content_type.split(';')[0]!.trim();
  return {
    stored,
    contentType: attachment.content_type,
    attachment: !INLINE_TYPES.has(bare),
    downloadName: attachment.path_id.split('/').pop()!,
  };
}

/** Removes temporary files that a crashed process left behind (older than an hour), once per directory. */
const sweptIncoming = new Set<string>();
export async function prepareIncoming(ctx: AppContext): Promise<string> {
  const dir = incomingDir(ctx);
  if (sweptIncoming.has(dir)) return dir;
  await fs.promises.mkdir(dir, { recursive: true });
  sweptIncoming.add(dir);
  const cutoff = Date.now() - 3600_000;
  for (const name of await fs.promises.readdir(dir).catch(() => [] as string[])) {
    const file = path.join(dir, name);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (stat && stat.mtimeMs < cutoff) await fs.promises.rm(file, { force: true });
  }
  return dir;
}

/**
 * DELETE /attachments/{attachment_id}: the owner removes a file they uploaded. Messages that
 * linked it keep the link, which then finds nothing (upstream `remove_attachment`). The row goes
 * first: a crash before the file is unlinked leaves an unreachable file, never a row without one.
 */
export async function deleteOwnAttachment(ctx: AppContext, realm: Realm, user: User, id: number) {
  const attachment = await transact(ctx, async (trx) => {
    const found = await trx
      .selectFrom('attachments')
      .selectAll()
      .where('id', '=', id)
      .where('realm_id', '=', realm.id)
      .where('owner_id', '=', user.id)
      .executeTakeFirst();
    if (!found) throw badRequest('Invalid attachment');
    await trx.deleteFrom('attachment_claims').where('attachment_id', '=', id).execute();
    await trx.deleteFrom('attachments').where('id', '=', id).execute();
    return found;
  });
  const key = uploadKey(attachment.path_id);
  if (key) await ctx.files.remove(key);
  return {};
}
