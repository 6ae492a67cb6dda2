import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import { badRequest } from '../domain/errors.js';

/** Alert words: words and phrases that flag a message `has_alert_word` for their owner. */
export const MAX_ALERT_WORD_LENGTH = 100;
/**
 * The reference server has no limit on how many; every message sent is searched for every
 * recipient's words, so one person's 20,000 words would slow every send, and one request of them
 * failed in the database (too many SQL variables). A thousand is far more than people keep.
 */
export const MAX_ALERT_WORDS = 1000;

const tooManyAlertWords = () => badRequest(`Too many alert words (limit: ${MAX_ALERT_WORDS})`);

export async function alertWordsOf(db: Database, userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('alert_words')
    .select('word')
    .where('user_id', '=', userId)
    .orderBy('word')
    .execute();
  return rows.map((r) => r.word);
}

/** Each change answers with, and announces, the whole new list. */
async function finish(trx: Database, realm: Realm, user: User, events: Delivery[]) {
  const words = await alertWordsOf(trx, user.id);
  events.push({
    realmId: realm.id,
    userIds: [user.id],
    event: { type: 'alert_words', alert_words: words },
  });
  return { alert_words: words };
}

/** GET /users/me/alert_words */
export async function getAlertWords(ctx: AppContext, user: User) {
  return { alert_words: await alertWordsOf(ctx.db, user.id) };
}

/** POST /users/me/alert_words: adds the words not already there (compared case-insensitively). */
export async function addAlertWords(ctx: AppContext, realm: Realm, user: User, words: string[]) {
  for (const [i, word] of words.entries()) {
    if (word.length > MAX_ALERT_WORD_LENGTH)
      throw badRequest(
        `alert_words[${i}] is too long (limit: ${MAX_ALERT_WORD_LENGTH} characters)`,
      );
    if (word.includes('\u0000')) throw badRequest(`alert_words[${i}] contains a null byte`);
  }
  const cleaned = words.map((w) => w.trim()).filter((w) => w !== '');
  if (new Set(cleaned.map((w) => w.toLowerCase())).size > MAX_ALERT_WORDS)
    throw tooManyAlertWords();
  return transact(ctx, async (trx, events) => {
    const known = new Set((await alertWordsOf(trx, user.id)).map((w) => w.toLowerCase()));
    const added = new Map<string, string>();
    for (const word of cleaned)
      if (!known.has(word.toLowerCase())) added.set(word.toLowerCase(), word);
    if (known.size + added.size > MAX_ALERT_WORDS) throw tooManyAlertWords();
    if (added.size)
      await trx
        .insertInto('alert_words')
        .values([...added.values()].map((word) => ({ user_id: user.id, word })))
        .execute();
    return finish(trx, realm, user, events);
  });
}

/** DELETE /users/me/alert_words: removes the words given, whatever their case. */
export async function removeAlertWords(ctx: AppContext, realm: Realm, user: User, words: string[]) {
  return transact(ctx, async (trx, events) => {
    const gone = new Set(words.map((w) => w.trim().toLowerCase()));
    const remove = (await alertWordsOf(trx, user.id)).filter((w) => gone.has(w.toLowerCase()));
    if (remove.length)
      await trx
        .deleteFrom('alert_words')
        .where('user_id', '=', user.id)
        .where('word', 'in', remove)
        .execute();
    return finish(trx, realm, user, events);
  });
}
