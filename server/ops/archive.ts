import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { z } from 'zod';
import { UsageError } from './errors.js';

/**
 * A Parley backup is one tar archive (gzip-compressed when its name ends in .gz or .tgz):
 *
 *   parley-backup.json         this manifest, first, so that a restore reads it before anything
 *   database/parley.sqlite3    the SQLite database, or
 *   database/parley.pgdump     PostgreSQL's custom-format dump of Parley's schema
 *   files/...                  the data directory's files: uploads, avatars, custom emoji...
 *
 * One file is what an operator copies off the machine, and `tar -tvf` shows what is inside
 * without Parley. It is written and read by the system's tar (GNU tar on Debian, where it is an
 * essential package; bsdtar elsewhere), with the options both share.
 */
export const MANIFEST = 'parley-backup.json';
export const DATABASE_DIR = 'database';
export const FILES_DIR = 'files';
export const SQLITE_COPY = `${DATABASE_DIR}/parley.sqlite3`;
export const POSTGRES_DUMP = `${DATABASE_DIR}/parley.pgdump`;

const FORMAT = 'parley-backup';
const FORMAT_VERSION = 1;

const manifestSchema = z.object({
  format: z.literal(FORMAT),
  formatVersion: z.literal(FORMAT_VERSION),
  createdAt: z.string(),
  parleyVersion: z.string(),
  database: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('sqlite') }),
    z.object({ kind: z.literal('postgres'), schema: z.string().min(1) }),
  ]),
  /** the schema version: every migration the database had recorded */
  migrations: z.array(z.string()).min(1),
  files: z.number().int().nonnegative(),
});

export type Manifest = z.infer<typeof manifestSchema>;

export function newManifest(fields: Omit<Manifest, 'format' | 'formatVersion'>): Manifest {
  return { format: FORMAT, formatVersion: FORMAT_VERSION, ...fields };
}

export const isCompressed = (file: string) => /\.(t?gz)$/i.test(file);

/** Writes the archive: each part's names, read from its directory, in the order given. */
export async function createArchive(
  file: string,
  parts: { dir: string; names: string[] }[],
  opts: { gzip: boolean },
) {
  const args = ['-c', ...(opts.gzip ? ['-z'] : []), '-f', file];
  for (const part of parts) args.push('-C', part.dir, ...part.names);
  await tar(args);
}

/** Extracts the named members (directories with all they hold) into `into`. */
export async function extractArchive(file: string, into: string, names: string[]) {
  await tar(['-x', '-f', file, '-C', into, ...names]);
}

/**
 * The manifest of a backup, read from the archive alone: whether the file is a Parley backup is
 * known before anything is touched.
 */
export async function readManifest(file: string): Promise<Manifest> {
  if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile())
    throw new UsageError(`${file} does not exist or is not a file`);
  let text: string;
  try {
    text = (await tar(['-x', '-O', '-f', file, MANIFEST])).toString('utf8');
  } catch (err) {
    throw new UsageError(
      `${file} is not a Parley backup: no ${MANIFEST} could be read from it ` +
        `(${(err as Error).message.split('\n')[0]})`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`${file} is not a Parley backup: its ${MANIFEST} is not JSON`);
  }
  const result = manifestSchema.safeParse(parsed);
  if (!result.success) {
    const found = (parsed as { formatVersion?: unknown } | null)?.formatVersion;
    throw new UsageError(
      found !== undefined && found !== FORMAT_VERSION
        ? `${file} is a Parley backup of format ${String(found)}; this version reads format ${FORMAT_VERSION}`
        : `${file} is not a Parley backup: ${result.error.issues[0]?.message ?? 'unexpected manifest'}`,
    );
  }
  return result.data;
}

function tar(args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('tar', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new Error('tar is not installed') : error),
    );
    child.on('close', (code) =>
      code === 0
        ? resolve(Buffer.concat(out))
        : reject(new Error(`tar failed (exit ${code}): ${err.trim() || 'no message'}`)),
    );
  });
}
