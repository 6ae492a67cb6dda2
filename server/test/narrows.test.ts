import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type TestServer } from './harness.js';
import {
  CASES,
  FIXTURES,
  REFUSED,
  changeAfterDelivery,
  label,
  operandOf,
  others,
  prepareWorld,
  sendFixtures,
  type Fixture,
  type NarrowCase,
  type World,
} from './narrow-cases.js';

/**
 * Every entry point that reads a narrow agrees with the others, case by case (narrow-cases.ts):
 * GET /messages, GET /messages/matches_narrow, POST /messages/flags/narrow, and a queue
 * registered with the narrow, which receives exactly what GET /messages returned when each
 * message was delivered, or is refused at /register.
 */

interface Row {
  name: string;
  c: NarrowCase;
  negated: boolean;
}

const ROWS: Row[] = CASES.flatMap((c, i) =>
  [false, ...(c.negate ? [true] : [])].map((negated) => ({
    name: `#${i} ${label(c, negated)}`,
    c,
    negated,
  })),
);

describe.each(DATABASES)('one narrow for every entry point, on %s', (db) => {
  let server: TestServer | undefined;
  let w: World;
  /** per row: the queue registered with its narrow, or the refusal */
  const queues = new Map<string, { status: number; body: any }>();
  /** per row: what GET /messages answered right after the fixtures were delivered */
  const atDelivery = new Map<string, unknown>();
  let flagEvents: string;

  const term = (row: Row) => ({
    operator: row.c.operator,
    operand: operandOf(row.c, w),
    negated: row.negated,
  });
  /** The register form: pairs of strings, negation as a leading "-". */
  const pair = (row: Row, world: Omit<World, 'msg'>) => {
    const operand = operandOf(row.c, world as World);
    return [
      (row.negated ? '-' : '') + row.c.operator,
      Array.isArray(operand) ? operand.join(',') : String(operand),
    ];
  };
  const idsOf = (fixtures: Fixture[]) => fixtures.map((f) => w.msg[f]).sort((x, y) => x - y);
  const expected = (row: Row, when: 'now' | 'delivered') => {
    const matched = when === 'delivered' ? (row.c.delivered ?? row.c.matches) : row.c.matches;
    return idsOf(row.negated ? others(matched) : matched);
  };
  /** The fixture window: from the first fixture message on. */
  const window = () => ({
    anchor: String(w.msg[FIXTURES[0]]),
    num_before: 0,
    num_after: 100,
    include_anchor: true,
  });
  /** The ids GET /messages answers, or its error (kept, not thrown, while setting up). */
  const answer = async (narrow: unknown[]) => {
    const r = await w.othello.get('/messages', { ...window(), narrow });
    return r.status === 200 ? (r.body.messages as { id: number }[]).map((m) => m.id) : r.body;
  };

  beforeAll(async () => {
    server = await startTestServer({ db });
    const world = await prepareWorld(server);
    const register = async (row: Row, narrowWorld: Omit<World, 'msg'>) =>
      queues.set(
        row.name,
        await world.othello.post('/register', {
          event_types: ['message'],
          narrow: [pair(row, narrowWorld)],
        }),
      );
    // A queue only receives what is sent after it exists. Narrows a queue refuses may name the
    // fixture messages themselves (id, near), so they are registered after those are sent.
    for (const row of ROWS) if (!row.c.queueRefuses) await register(row, world);
    w = { ...world, msg: await sendFixtures(world) };
    for (const row of ROWS) if (row.c.queueRefuses) await register(row, w);
    for (const row of ROWS) atDelivery.set(row.name, await answer([term(row)]));
    await changeAfterDelivery(w);
    flagEvents = (await w.othello.post('/register', { event_types: ['update_message_flags'] })).body
      .queue_id;
  }, 120_000);
  afterAll(() => server?.close());

  it.each(ROWS)('GET /messages $name', async (row) => {
    expect(await answer([term(row)])).toEqual(expected(row, 'now'));
  });

  it.each(ROWS)('GET /messages/matches_narrow $name', async (row) => {
    const r = await w.othello.get('/messages/matches_narrow', {
      msg_ids: Object.values(w.msg),
      narrow: [term(row)],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(
      Object.keys(r.body.messages)
        .map(Number)
        .sort((x, y) => x - y),
    ).toEqual(expected(row, 'now'));
  });

  /** The flag events queued since the last call, acknowledged. */
  const takeFlagEvents = async () => {
    const events = (await w.othello.get('/events', { queue_id: flagEvents, dont_block: true })).body
      .events as any[];
    if (events.length)
      await w.othello.get('/events', {
        queue_id: flagEvents,
        last_event_id: events.at(-1).id,
        dont_block: true,
      });
    return events;
  };

  it.each(ROWS)('POST /messages/flags/narrow $name', async (row) => {
    // "collapsed" is a flag no narrow reads: setting it over the narrow disturbs no other case.
    const change = (op: string) =>
      w.othello.post('/messages/flags/narrow', {
        ...window(),
        narrow: [term(row)],
        op,
        flag: 'collapsed',
      });
    await takeFlagEvents();
    const added = await change('add');
    const changed = (await takeFlagEvents())
      .filter((e) => e.op === 'add')
      .flatMap((e) => e.messages as number[]);
    expect((await change('remove')).status).toBe(200);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(changed.sort((x, y) => x - y)).toEqual(expected(row, 'now'));
    expect(added.body.processed_count).toBe(expected(row, 'now').length);
  });

  it.each(ROWS)('a queue registered with $name', async (row) => {
    const registered = queues.get(row.name)!;
    if (row.c.queueRefuses) {
      expect(registered.status, row.c.queueRefuses).toBe(400);
      expect(registered.body).toMatchObject({
        result: 'error',
        code: 'BAD_NARROW',
        desc: expect.stringMatching(/ is not supported in event queues$/),
      });
      expect(registered.body.msg).toBe(`Invalid narrow operator: ${registered.body.desc}`);
      return;
    }
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    const events = (
      await w.othello.get('/events', {
        queue_id: registered.body.queue_id,
        last_event_id: -1,
        dont_block: true,
      })
    ).body.events as any[];
    const delivered = events.filter((e) => e.type === 'message').map((e) => e.message.id as number);
    expect(delivered).toEqual(expected(row, 'delivered'));
    // What GET /messages answered just after delivery, before stars, reactions and reads changed.
    expect(atDelivery.get(row.name)).toEqual(delivered);
  });

  it('highlights the words of a search in match_content and match_subject', async () => {
    const search = (operand: string) =>
      w.othello.get('/messages', { ...window(), narrow: [{ operator: 'search', operand }] });
    const [own] = (await search('zanzibar')).body.messages;
    expect(own.match_content).toContain('<span class="highlight">Zanzibar</span> note');
    expect(own.match_subject).toBe('alpha');
    const byTopic = (await search('ALPHA')).body.messages;
    expect(byTopic[0].match_subject).toBe('<span class="highlight">alpha</span>');
    const plain = await w.othello.get('/messages', {
      ...window(),
      narrow: [{ operator: 'channel', operand: w.stream.a }],
    });
    expect(plain.body.messages[0]).not.toHaveProperty('match_content');
  });

  describe('refuses what it does not know, with BAD_NARROW, everywhere', () => {
    const refusal = (desc: string) => ({
      result: 'error',
      code: 'BAD_NARROW',
      msg: `Invalid narrow operator: ${desc}`,
      desc,
    });
    it.each(REFUSED)('$narrow', async ({ narrow, desc }) => {
      const answers = [
        await w.othello.get('/messages', { anchor: 'newest', num_before: 1, narrow }),
        await w.othello.get('/messages/matches_narrow', { msg_ids: [w.msg.plain], narrow }),
        await w.othello.post('/messages/flags/narrow', {
          anchor: 'newest',
          num_before: 1,
          num_after: 0,
          narrow,
          op: 'add',
          flag: 'collapsed',
        }),
        await w.othello.post('/register', { event_types: ['message'], narrow }),
      ];
      for (const r of answers) {
        expect(r.status).toBe(400);
        expect(r.body).toEqual(refusal(desc));
      }
    });
  });

  // Last: it adds and moves messages, which the cases above do not expect.
  it('with follows a message to the topic it was moved to', async () => {
    const sent = await w.hamlet.post('/messages', {
      type: 'stream',
      to: String(w.stream.b),
      topic: 'before',
      content: 'moving soon',
    });
    const id = sent.body.id as number;
    const move = await w.hamlet.patch(`/messages/${id}`, {
      topic: 'after',
      propagate_mode: 'change_all',
    });
    expect(move.status, JSON.stringify(move.body)).toBe(200);
    const narrow = [
      { operator: 'channel', operand: w.stream.b },
      { operator: 'topic', operand: 'before' },
      { operator: 'with', operand: id },
    ];
    const r = await w.othello.get('/messages', { anchor: id, num_before: 5, num_after: 5, narrow });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // The message, and the notice of the move that followed it, both in the new topic.
    expect(r.body.messages[0].id).toBe(id);
    expect(new Set(r.body.messages.map((m: any) => m.subject))).toEqual(new Set(['after']));
    expect(r.body.found_anchor).toBe(true);
  });
});
