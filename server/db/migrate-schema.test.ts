import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kysely, PostgresDialect } from 'kysely';
import type { DB } from './schema.js';
import { withSchemaIntrospection } from './index.js';

/**
 * The migrator's look for its bookkeeping tables reads only the server's own schema: Kysely's
 * introspector read every schema's tables, then their columns, and failed when another schema was
 * dropped in between (seen in CI, with test files on PostgreSQL side by side).
 */
const url = process.env.TEST_DATABASE_URL;
const tag = `${process.pid}_${Date.now()}`;
const ours = `parley_introspect_ours_${tag}`;
const other = `parley_introspect_other_${tag}`;

describe.skipIf(!url)('the migrator on PostgreSQL sees only its own schema', () => {
  const admin = new pg.Client({ connectionString: url });
  let pool: pg.Pool;
  let db: Kysely<DB>;

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${ours}`);
    await admin.query(`CREATE SCHEMA ${other}`);
    await admin.query(`CREATE TABLE ${ours}.kysely_migration (name text)`);
    await admin.query(`CREATE TABLE ${other}.elsewhere (id int)`);
    await admin.query(`CREATE VIEW ${ours}.a_view AS SELECT 1 AS one`);
    const withPath = new URL(url!);
    withPath.searchParams.set('options', `-c search_path=${ours}`);
    pool = new pg.Pool({ connectionString: withPath.toString(), max: 2 });
    db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  });

  afterAll(async () => {
    await db?.destroy();
    await admin.query(`DROP SCHEMA IF EXISTS ${ours} CASCADE`);
    await admin.query(`DROP SCHEMA IF EXISTS ${other} CASCADE`);
    await admin.end();
  });

  it('lists the tables and views of its schema and nothing of another', async () => {
    const scoped = withSchemaIntrospection(db, ours);
    const tables = await scoped.introspection.getTables();
    expect(tables.map((t) => [t.schema, t.name, t.isView]).sort()).toEqual([
      [ours, 'a_view', true],
      [ours, 'kysely_migration', false],
    ]);
    expect((await scoped.introspection.getSchemas()).map((s) => s.name)).toEqual([ours]);
    // Everything else about the database is the instance's own.
    expect(
      await scoped
        .selectFrom('kysely_migration' as never)
        .selectAll()
        .execute(),
    ).toEqual([]);
  });

  it('keeps answering while another schema is dropped', async () => {
    const scoped = withSchemaIntrospection(db, ours);
    await admin.query(`DROP SCHEMA ${other} CASCADE`);
    const names = (await scoped.introspection.getTables()).map((t) => t.name).sort();
    expect(names).toEqual(['a_view', 'kysely_migration']);
  });
});
