import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../config.js';
import { populate, POPULATE_DEFAULTS } from '../populate.js';
import { openDatabase } from './index.js';

/**
 * SQLite's planner statistics (db/index.ts keepStatistics): a server writes them for a database
 * grown by use, which has none, once it holds enough messages for plans to depend on them, and
 * analyses the indexes added since the last ANALYZE; a small database is left to the planner's
 * guesses, as the plan tests of the send path expect.
 */
describe('SQLite planner statistics', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-statistics-'));
  const file = path.join(dir, 'parley.sqlite3');
  const read = <T>(fn: (db: SQLite.Database) => T): T => {
    const db = new SQLite(file);
    try {
      return fn(db);
    } finally {
      db.close();
    }
  };
  const hasStatistics = () =>
    read(
      (db) =>
        !!db
          .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'`)
          .get(),
    );
  const statisticsOf = (index: string) =>
    read((db) => db.prepare('SELECT stat FROM sqlite_stat1 WHERE idx = ?').pluck().get(index));
  /** A server's start and stop on the directory. */
  const serverStart = async () => (await openDatabase({ dataDir: dir })).close();

  beforeAll(async () => {
    const handle = await openDatabase({ dataDir: dir, lock: false });
    const config = { ...configFromEnv({}), dataDir: dir, demo: false };
    await populate(handle, config, {
      ...POPULATE_DEFAULTS,
      users: 20,
      channels: 3,
      messages: 9_000,
    });
    await handle.close();
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('leaves a small database without, and analyses one that has grown', async () => {
    // As a database grown by use: populate's own ANALYZE undone.
    read((db) => db.exec('DROP TABLE sqlite_stat1; DROP TABLE IF EXISTS sqlite_stat4'));
    await serverStart();
    expect(hasStatistics()).toBe(false);
    // It grows past 10,000 messages (copies of 2,000 of them, the search index following).
    const handle = await openDatabase({ dataDir: dir, lock: false });
    await sql`INSERT INTO messages (realm_id, sender_id, type, stream_id, topic, topic_key, dm_key, content, rendered_content, date_sent, sending_client) SELECT realm_id, sender_id, type, stream_id, topic, topic_key, dm_key, content, rendered_content, date_sent, sending_client FROM messages ORDER BY id LIMIT 2000`.execute(
      handle.db,
    );
    await handle.close();
    await serverStart();
    expect(hasStatistics()).toBe(true);
    const rows = (index: string) => Number(String(statisticsOf(index)).split(' ')[0]);
    expect(rows('messages_sender')).toBe(11_000);
    expect(rows('sqlite_autoindex_user_messages_1')).toBeGreaterThan(11_000);
  });

  it('analyses an index that has none, leaving the others as they are', async () => {
    read((db) => {
      db.prepare('DELETE FROM sqlite_stat1 WHERE idx = ?').run('messages_has_link');
      db.prepare('UPDATE sqlite_stat1 SET stat = ? WHERE idx = ?').run(
        '11000 7 1',
        'messages_sender',
      );
    });
    await serverStart();
    // None of the populated messages has a link: the index is analysed, empty.
    expect(statisticsOf('messages_has_link')).toBe('0 0');
    expect(statisticsOf('messages_sender')).toBe('11000 7 1');
  });
});
