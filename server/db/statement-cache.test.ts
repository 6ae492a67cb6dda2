import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from './index.js';

describe('the SQLite statement cache', () => {
  const open = () => {
    const sqlite = new SQLite(':memory:');
    sqlite.exec('CREATE TABLE t (n INTEGER)');
    sqlite.exec('INSERT INTO t VALUES (1), (2), (3)');
    return withStatementCache(sqlite);
  };

  it('prepares a query once and hands the same statement out again', () => {
    const db = open();
    const first = db.prepare('SELECT n FROM t WHERE n > ?');
    expect(db.prepare('SELECT n FROM t WHERE n > ?')).toBe(first);
    expect(first.all([1])).toEqual([{ n: 2 }, { n: 3 }]);
    expect(db.prepare('SELECT n FROM t WHERE n > ?').all([2])).toEqual([{ n: 3 }]);
    expect(db.prepare('SELECT n FROM t WHERE n < ?')).not.toBe(first);
    db.close();
  });

  it('gives a fresh statement while the kept one is still being iterated', () => {
    const db = open();
    const rows = db.prepare('SELECT n FROM t ORDER BY n').iterate([]);
    expect(rows.next().value).toEqual({ n: 1 });
    // A second use of the same text meanwhile must not disturb the first.
    expect(db.prepare('SELECT n FROM t ORDER BY n').all([])).toHaveLength(3);
    expect([...rows]).toEqual([{ n: 2 }, { n: 3 }]);
    db.close();
  });

  it('sees schema changes made after a statement was kept', () => {
    const db = open();
    expect(db.prepare('SELECT * FROM t LIMIT 1').all([])).toEqual([{ n: 1 }]);
    db.prepare('ALTER TABLE t ADD COLUMN m INTEGER DEFAULT 7').run([]);
    expect(db.prepare('SELECT * FROM t LIMIT 1').all([])).toEqual([{ n: 1, m: 7 }]);
    db.close();
  });
});
