/**
 * What an account keeps in this browser between visits, so that a reload shows the account at
 * once and works without the server: its live state as the event queue last left it, the message
 * pages of the conversations it read recently, and the messages it wrote that the server has not
 * accepted yet (the outbox). Kept in IndexedDB through idb-keyval, by structured clone (the
 * state's records and arrays go in as they are, with no JSON step), one record per kind and
 * account, and one per waiting message, so that two tabs never overwrite each other's messages.
 *
 * A browser without IndexedDB (or one that refuses it: a private window, a full disk) gets no
 * cache: every call then resolves without effect, and the app works online as before.
 */
import { createStore, delMany, get, getMany, keys, set, setMany, type UseStore } from 'idb-keyval';
import type { AccountState } from './account-state';
import type { OutboxMessage } from './outbox';

/**
 * Raised whenever the shape of what is kept changes: a record of another version is dropped on
 * reading, not misread.
 */
const CACHE_VERSION = 1;

interface Versioned<T> {
  version: number;
  savedAt: number;
  value: T;
}

/** A waiting message as kept: the tab that sends it, so that others leave it alone. */
export interface StoredOutboxMessage extends OutboxMessage {
  tab: string;
}

export interface OfflineCache {
  loadState(): Promise<AccountState | null>;
  saveState(state: AccountState): Promise<void>;
  loadQueries(): Promise<unknown>;
  saveQueries(dehydrated: unknown): Promise<void>;
  loadOutbox(): Promise<StoredOutboxMessage[]>;
  putOutbox(message: StoredOutboxMessage): Promise<void>;
  deleteOutbox(localIds: readonly string[]): Promise<void>;
  /** Everything of the account, for logging out; later saves do nothing. */
  erase(): Promise<void>;
}

let database: UseStore | null | undefined;

function store(): UseStore | null {
  if (database === undefined) {
    try {
      database = typeof indexedDB === 'undefined' ? null : createStore('parley', 'accounts');
    } catch {
      database = null;
    }
  }
  return database;
}

/** Failures of the cache never reach the app: it only loses the head start. */
async function quietly<T>(fallback: T, run: (db: UseStore) => Promise<T>): Promise<T> {
  const db = store();
  if (!db) return fallback;
  try {
    return await run(db);
  } catch (error) {
    console.warn('The offline cache failed:', error);
    return fallback;
  }
}

const ownKeysOf = (account: string, db: UseStore) =>
  keys<string>(db).then((all) =>
    all.filter((key) => typeof key === 'string' && key.startsWith(`${account}\u0000`)),
  );

/** The kept state, put together from its parts; null where none (or another version's). */
function readState(account: string) {
  const statePrefix = `${account}\u0000state\u0000`;
  return quietly<AccountState | null>(null, async (db) => {
    const partKeys = (await ownKeysOf(account, db)).filter((key) => key.startsWith(statePrefix));
    if (partKeys.length === 0) return null;
    const records = await getMany<Versioned<unknown> | undefined>(partKeys, db);
    if (records.some((r) => r?.version !== CACHE_VERSION)) return null;
    return Object.fromEntries(
      partKeys.map((key, i) => [key.slice(statePrefix.length), records[i]!.value]),
    ) as unknown as AccountState;
  });
}

function readQueries(account: string) {
  return quietly<unknown>(null, async (db) => {
    const record = await get<Versioned<unknown>>(`${account}\u0000queries`, db);
    return record && record.version === CACHE_VERSION ? record.value : null;
  });
}

/** Reads started before the session asked (preloadKept), each handed out once. */
const early = new Map<
  string,
  { state?: Promise<AccountState | null>; queries?: Promise<unknown> }
>();

function takeEarly<K extends 'state' | 'queries'>(account: string, kind: K) {
  const entry = early.get(account);
  const promise = entry?.[kind];
  if (entry) delete entry[kind];
  return promise as
    (K extends 'state' ? Promise<AccountState | null> : Promise<unknown>) | undefined;
}

/**
 * Starts reading an account's kept state and pages at once, as the page starts, rather than when
 * the session that wants them has been made (after the first render): IndexedDB answers in a
 * separate process, and its answer then overlaps the scripts' start.
 */
export function preloadKept(account: string): void {
  if (!early.has(account))
    early.set(account, { state: readState(account), queries: readQueries(account) });
}

/** The account's cache; `account` names the server and the person (accountCacheKey). */
export function offlineCacheFor(account: string): OfflineCache {
  // The state is kept one record per part (users, subscriptions, unreads...), and a save writes
  // only the parts that changed since the last (the reducers make a new object for a changed
  // part and keep the others): a presence change does not copy ten thousand people again.
  const statePrefix = `${account}\u0000state\u0000`;
  let savedParts: Record<string, unknown> = {};
  const queriesKey = `${account}\u0000queries`;
  const outboxPrefix = `${account}\u0000outbox\u0000`;
  let erased = false;

  const save = <T>(key: string, value: T) =>
    quietly(undefined, async (db) => {
      if (erased) return;
      const record: Versioned<T> = { version: CACHE_VERSION, savedAt: Date.now(), value };
      await set(key, record, db);
    });
  const load = <T>(key: string) =>
    quietly<T | null>(null, async (db) => {
      const record = await get<Versioned<T>>(key, db);
      return record && record.version === CACHE_VERSION ? record.value : null;
    });
  const ownKeys = (db: UseStore) => ownKeysOf(account, db);

  return {
    loadState: async () => {
      const parts = await (takeEarly(account, 'state') ?? readState(account));
      if (parts) savedParts = parts as unknown as Record<string, unknown>;
      return parts;
    },
    saveState: (state) =>
      quietly(undefined, async (db) => {
        if (erased) return;
        const changed = Object.entries(state).filter(([part, value]) => savedParts[part] !== value);
        if (changed.length === 0) return;
        const savedAt = Date.now();
        await setMany(
          changed.map(([part, value]) => [
            statePrefix + part,
            { version: CACHE_VERSION, savedAt, value } satisfies Versioned<unknown>,
          ]),
          db,
        );
        savedParts = { ...state };
      }),
    loadQueries: () => takeEarly(account, 'queries') ?? load<unknown>(queriesKey),
    saveQueries: (dehydrated) => save(queriesKey, dehydrated),
    loadOutbox: () =>
      quietly<StoredOutboxMessage[]>([], async (db) => {
        const found = await Promise.all(
          (await ownKeys(db))
            .filter((key) => key.startsWith(outboxPrefix))
            .map((key) => get<Versioned<StoredOutboxMessage>>(key, db)),
        );
        return found
          .flatMap((record) => (record?.version === CACHE_VERSION ? [record.value] : []))
          .sort((a, b) => a.timestamp - b.timestamp || a.localId.localeCompare(b.localId));
      }),
    putOutbox: (message) => save(outboxPrefix + message.localId, message),
    deleteOutbox: (localIds) =>
      quietly(undefined, async (db) => {
        if (localIds.length > 0)
          await delMany(
            localIds.map((id) => outboxPrefix + id),
            db,
          );
      }),
    erase: () => {
      erased = true;
      savedParts = {};
      return quietly(undefined, async (db) => {
        await delMany(await ownKeys(db), db);
      });
    },
  };
}

/** The cache's name for an account: the server it talks to and the person. */
export function accountCacheKey(baseUrl: string | undefined, email: string): string {
  return `${baseUrl ?? globalThis.location?.origin ?? ''}\u0000${email.toLowerCase()}`;
}
