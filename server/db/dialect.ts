/** The databases Parley runs on: SQLite embedded, PostgreSQL by URL. */
export type Dialect = 'sqlite' | 'postgres';
