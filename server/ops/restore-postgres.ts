import type pg from 'pg';
import { fileTimestamp } from '../db/data-dir.js';
import {
  PgToolMissingError,
  connectPg,
  createSchema,
  dropSchema,
  dumpedSchema,
  parleySchema,
  pgDumpContents,
  pgMigrations,
  pgRestore,
  pgToolVersion,
  renameSchema,
  schemaExists,
  schemaHasObjects,
  tryLockSchema,
} from '../db/pg-tools.js';
import type { Manifest } from './archive.js';
import { UsageError } from './errors.js';

export interface PostgresTarget {
  /** holds the schema's restore lock until it ends */
  client: pg.Client;
  /** the schema to restore into: the one DATABASE_URL's servers use */
  schema: string;
  /** the schema the dump was taken from */
  dumped: string;
  occupied: boolean;
}

/**
 * Asks everything that can refuse a PostgreSQL restore, and holds the schema's lock: no server
 * is using the schema (each holds the lock shared while it runs), the dump's own schema is free if
 * it is another, and pg_restore is installed.
 */
export async function checkPostgresTarget(
  databaseUrl: string,
  manifest: Manifest,
): Promise<PostgresTarget> {
  if (manifest.database.kind !== 'postgres') throw new Error('not a PostgreSQL backup');
  const client = await connectPg(databaseUrl);
  try {
    const schema = await parleySchema(client);
    if (!(await tryLockSchema(client, schema)))
      throw new Error(
        `A Parley server is using the schema "${schema}" of ${client.database}: ` +
          `stop every server on it before restoring.`,
      );
    const dumped = manifest.database.schema;
    if (dumped !== schema && (await schemaExists(client, dumped)))
      throw new Error(
        `The backup was taken from the schema "${dumped}", which this database has beside ` +
          `"${schema}": restore it into a database without "${dumped}", or rename that schema.`,
      );
    if ((await pgToolVersion('pg_restore')) === null)
      throw new PgToolMissingError(
        'pg_restore was not found on the PATH. Install PostgreSQL client tools ' +
          '(Debian: apt-get install postgresql-client) of the server major version or newer.',
      );
    const occupied =
      (await schemaExists(client, schema)) && (await schemaHasObjects(client, schema));
    return { client, schema, dumped, occupied };
  } catch (err) {
    await client.end();
    throw err;
  }
}

/**
 * Restores the dump into the target schema. pg_dump names every object with its schema, so the
 * dump goes back into the schema it came from, which is then renamed to the target if that is
 * another. The target's previous tables are renamed aside first (`<schema>_before_restore_<time>`)
 * and renamed back if the restore fails. Returns the set-aside schema, if any.
 */
export async function restorePostgresSchema(
  target: PostgresTarget,
  manifest: Manifest,
  dump: string,
  databaseUrl: string,
): Promise<string | null> {
  const { client, schema, dumped } = target;
  const contents = await pgDumpContents(dump);
  if (
    dumpedSchema(contents) !== dumped ||
    !contents.includes(` TABLE DATA ${dumped} kysely_migration `)
  )
    throw new UsageError(`The backup's dump is not of the schema "${dumped}" its manifest names`);
  const aside = target.occupied ? asideName(schema) : null;
  if (aside) await renameSchema(client, schema, aside);
  let created = false;
  try {
    if (!(await schemaExists(client, dumped))) {
      await createSchema(client, dumped);
      created = true;
    }
    await pgRestore(databaseUrl, dump);
    const recorded = await pgMigrations(client, dumped);
    if (recorded.join() !== manifest.migrations.join())
      throw new UsageError(
        `The backup's database is not at the schema version its manifest states ` +
          `(${recorded.at(-1) ?? 'none'} instead of ${manifest.migrations.at(-1)})`,
      );
    if (dumped !== schema) {
      await dropSchema(client, schema, false); // empty: what it held was renamed aside
      await renameSchema(client, dumped, schema);
    }
    return aside;
  } catch (err) {
    if (created) await dropSchema(client, dumped, true);
    if (aside) await renameSchema(client, aside, schema);
    throw err;
  }
}

/** `<schema>_before_restore_<time>`, within PostgreSQL's 63 bytes for a name. */
function asideName(schema: string) {
  const suffix = `_before_restore_${fileTimestamp().toLowerCase()}`;
  return (
    Buffer.from(schema)
      .subarray(0, 63 - suffix.length)
      .toString() + suffix
  );
}
