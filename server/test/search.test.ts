import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_READING_LIMITS } from '../lib/get-messages.js';
import { databases, useServer } from './fixtures.js';

/**
 * Full-text search (the `search` operator) through each database's own engine, as upstream's:
 * words, stems, phrases, odd input, other operators beside it, highlighting, and the index kept
 * in step with edits, moves and deletes.
 */

type Narrow = unknown[];
const mark = (text: string) => `<span class="highlight">${text}</span>`;

describe.each(databases('both'))('search on %s', (db) => {
  const w = useServer({ db, people: ['iago', 'hamlet'] });
  const { hamlet, iago } = w.as;
  const id: Record<string, number> = {};

  const fetch = async (narrow: Narrow, who = hamlet) => {
    const r = await who.get('/messages', { anchor: 'newest', num_before: 1000, narrow });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.messages as any[];
  };
  const ids = async (narrow: Narrow, who = hamlet) => (await fetch(narrow, who)).map((m) => m.id);
  const search = (operand: string, ...more: Narrow) =>
    ids([['channel', 'finding'], ['search', operand], ...more]);
  const send = async (topic: string, content: string, to = 'finding') => {
    const r = await hamlet.post('/messages', { type: 'stream', to, topic, content });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.id as number;
  };

  beforeAll(async () => {
    await hamlet.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'finding' }, { name: 'elsewhere' }],
    });
    id.running = await send('marathon plans', 'We are **running** the quick brown fox race');
    id.runs = await send('daily', 'She runs every morning; the fox is quick.');
    id.topicOnly = await send('running club', 'Meet at noon');
    id.code = await send('snippets', 'Try `compile_all()` then <b>bold</b> & done');
    id.other = await send('unrelated', 'Nothing to see: zebra crossing');
  });

  it('finds every form of a word by its stem, in the content or the topic', async () => {
    expect(await search('run')).toEqual([id.running, id.runs, id.topicOnly]);
    expect(await search('RUNNING')).toEqual([id.running, id.runs, id.topicOnly]);
    expect(await search('marathon')).toEqual([id.running]);
  });

  it('wants every word, each in the content or the topic', async () => {
    expect(await search('run quick')).toEqual([id.running, id.runs]);
    expect(await search('club noon')).toEqual([id.topicOnly]);
    expect(await search('marathon morning')).toEqual([]);
    expect(await search('zebra nonsenseword')).toEqual([]);
  });

  it('matches a quoted phrase only as adjacent words', async () => {
    expect(await search('quick fox')).toEqual([id.running, id.runs]);
    expect(await search('"brown fox"')).toEqual([id.running]);
    expect(await search('"fox brown"')).toEqual([]);
    expect(await search('"quick brown fox" race')).toEqual([id.running]);
  });

  it('ignores stop words beside other words and matches nothing with stop words alone', async () => {
    expect(await search('the zebra')).toEqual([id.other]);
    expect(await search('the')).toEqual([]);
    expect(await search('"to be or not to be"')).toEqual([]);
  });

  it('reads words, not markup, and takes punctuation as a separator', async () => {
    expect(await search('compile_all')).toEqual([id.code]);
    expect(await search('bold')).toEqual([id.code]);
    // The HTML around the text is not searched.
    expect(await search('span')).toEqual([]);
    expect(await search('p')).toEqual([]);
  });

  it('answers odd input without an error, never reading it as query syntax', async () => {
    const odd = [
      '"',
      '""',
      '"unclosed quote',
      '*',
      'run*',
      'NEAR(run fox)',
      'run OR zebra',
      'run AND NOT fox',
      'content:zebra',
      'zebra:crossing',
      '-zebra',
      '^run',
      '(((',
      "'; DROP TABLE messages; --",
      '!!! ??? ...',
      '🎉',
      'a'.repeat(2000),
      'x '.repeat(300),
      '\\',
      '%_%',
      'to:be',
    ];
    for (const operand of odd) {
      const r = await hamlet.get('/messages', {
        anchor: 'newest',
        num_before: 10,
        num_after: 0,
        narrow: [['search', operand]],
      });
      expect(r.status, `${operand}: ${JSON.stringify(r.body)}`).toBe(200);
    }
    // Operators of the engines' own syntax are plain words here.
    expect(await search('run OR zebra')).toEqual([]);
    expect(await search('zebra:crossing')).toEqual([id.other]);
    expect(await search('(run* fox)')).toEqual([id.running, id.runs]);
    expect(await search('!!! ???')).toEqual([]);
    // The messages are all still there.
    expect(await ids([['channel', 'finding']])).toHaveLength(5);
  });

  it('keeps working negated and beside other operators', async () => {
    expect(await ids([['channel', 'finding'], { operator: 'search', operand: 'run', negated: true }])).toEqual([
      id.code,
      id.other,
    ]); // prettier-ignore
    expect(await search('run', ['topic', 'daily'])).toEqual([id.runs]);
    expect(await search('run', ['sender', 'hamlet@example.com'])).toEqual([
      id.running,
      id.runs,
      id.topicOnly,
    ]);
    expect(await search('run', ['sender', 'iago@example.com'])).toEqual([]);
    await hamlet.post('/messages/flags', { messages: [id.runs], op: 'add', flag: 'starred' });
    expect(
      await ids([
        ['is', 'starred'],
        ['channel', 'finding'],
        ['search', 'run'],
      ]),
    ).toEqual([id.runs]);
    expect(
      await ids([
        ['channel', 'elsewhere'],
        ['search', 'run'],
      ]),
    ).toEqual([]);
    // Someone who cannot read the channel finds nothing in it.
    expect(await ids([['search', 'marathon']], iago)).not.toContain(id.running);
  });

  it('highlights the words it matched, stemmed forms too, in content and topic', async () => {
    const [message] = await fetch([
      ['channel', 'finding'],
      ['search', 'marathon run'],
    ]);
    expect(message.id).toBe(id.running);
    expect(message.match_content).toBe(
      `<p>We are <strong>${mark('running')}</strong> the quick brown fox race</p>`,
    );
    expect(message.match_subject).toBe(`${mark('marathon')} plans`);
    const [phrase] = await fetch([
      ['channel', 'finding'],
      ['search', '"brown fox"'],
    ]);
    expect(phrase.match_content).toContain(`${mark('brown')} ${mark('fox')}`);
    const [code] = await fetch([
      ['channel', 'finding'],
      ['search', 'bold'],
    ]);
    expect(code.match_content).toContain(`&lt;b&gt;${mark('bold')}&lt;/b&gt;`);
  });

  it('follows edits, topic renames, moves between channels and deletes', async () => {
    // (The notification of a move names the old topic: none is sent here.)
    const quietly = {
      send_notification_to_old_thread: false,
      send_notification_to_new_thread: false,
    };
    const edited = await send('kitchen', 'The kettle whistles');
    expect(await search('kettle')).toEqual([edited]);
    let r = await hamlet.patch(`/messages/${edited}`, { content: 'The teapot sings' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await search('kettle')).toEqual([]);
    expect(await search('teapots')).toEqual([edited]);

    r = await hamlet.patch(`/messages/${edited}`, {
      topic: 'pantry shelves',
      propagate_mode: 'change_all',
      ...quietly,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await search('kitchen')).toEqual([]);
    expect(await search('pantry teapot')).toEqual([edited]);

    const elsewhere = (await hamlet.get('/get_stream_id', { stream: 'elsewhere' })).body.stream_id;
    r = await iago.patch(`/messages/${edited}`, {
      stream_id: elsewhere,
      propagate_mode: 'change_all',
      ...quietly,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await search('teapot')).toEqual([]);
    expect(
      await ids([
        ['channel', 'elsewhere'],
        ['search', 'teapot'],
      ]),
    ).toEqual([edited]);

    r = await iago.delete(`/messages/${edited}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await ids([['search', 'teapot']])).toEqual([]);
  });
});

describe.each(databases('both'))('search of common words on %s', (db) => {
  const w = useServer({ db, people: ['hamlet'] });
  const { hamlet } = w.as;
  const words = ['wombat', 'quokka', 'numbat'];
  const expected: Record<string, number[]> = {};
  const limits = { ...SEARCH_READING_LIMITS };

  beforeAll(async () => {
    await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'common' }] });
    for (const w of words) expected[w] = [];
    for (let i = 0; i < 40; i++) {
      const content = words.filter((_, k) => i % (k + 2) === 0).join(' ') || 'nothing';
      const r = await hamlet.post('/messages', {
        type: 'stream',
        to: i % 3 === 0 ? 'common' : 'general',
        topic: 'counting',
        content,
      });
      for (const w of words) if (content.includes(w)) expected[w].push(r.body.id);
    }
  });
  afterEach(() => Object.assign(SEARCH_READING_LIMITS, limits));

  const page = async (narrow: Narrow, anchor: unknown, before: number, after: number) => {
    const r = await hamlet.get('/messages', {
      anchor,
      num_before: before,
      num_after: after,
      narrow,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const b = r.body;
    return {
      ids: b.messages.map((m: any) => m.id),
      oldest: b.found_oldest,
      newest: b.found_newest,
    };
  };

  // On SQLite the matches are read three ways, chosen by how many there are: each must give
  // the same windows (PostgreSQL ignores the limits).
  it.each([
    ['as a list', { fewMatches: 1_000_000, smallNarrow: 1_000_000 }],
    ['by probing a small narrow', { fewMatches: 1, smallNarrow: 1_000_000 }],
    ['newest first from the index', { fewMatches: 1, smallNarrow: 1 }],
  ])('gives the same windows read %s', async (_, set) => {
    Object.assign(SEARCH_READING_LIMITS, set);
    const all = await page([['search', 'wombat']], 'newest', 1000, 0);
    expect(all.ids).toEqual(expected.wombat);
    const newest = await page([['search', 'wombat']], 'newest', 3, 0);
    expect(newest).toEqual({ ids: expected.wombat.slice(-3), oldest: false, newest: true });
    const middle = expected.wombat[5];
    const around = await page([['search', 'wombat']], middle, 2, 2);
    expect(around.ids).toEqual(expected.wombat.slice(3, 8));
    const oldest = await page([['search', 'wombat quokka']], 'oldest', 0, 1000);
    expect(oldest.ids).toEqual(expected.wombat.filter((x) => expected.quokka.includes(x)));
    // Two search terms: every message matches both, however the first is read.
    const both = await page(
      [
        ['search', 'quokka'],
        ['search', 'numbat'],
      ],
      'newest',
      1000,
      0,
    );
    expect(both.ids).toEqual(expected.quokka.filter((x) => expected.numbat.includes(x)));
    expect(both.ids.length).toBeGreaterThan(0);
    const channel = await page(
      [
        ['channel', 'common'],
        ['search', 'numbat'],
      ],
      'newest',
      1000,
      0,
    );
    const inCommon = await page([['channel', 'common']], 'newest', 1000, 0);
    expect(channel.ids).toEqual(expected.numbat.filter((x) => inCommon.ids.includes(x)));
    const negated = await page(
      [['channel', 'common'], { operator: 'search', operand: 'numbat', negated: true }],
      'newest',
      1000,
      0,
    );
    expect(negated.ids).toEqual(inCommon.ids.filter((x: number) => !expected.numbat.includes(x)));
  });
});
