import { expect } from 'vitest';
import { TestClient } from './client.js';
import { DEMO_PASSWORD, type TestServer } from './harness.js';

/**
 * One table of narrow cases for every entry point that reads a narrow (narrows.test.ts drives it
 * through GET /messages, GET /messages/matches_narrow, POST /messages/flags/narrow and an event
 * queue registered with the narrow). Each row says which of the fixture messages below the narrow
 * matches, seen by othello; every other fixture message must not match.
 */

export const FIXTURES = [
  'plain',
  'link',
  'image',
  'attachment',
  'own',
  'resolved',
  'mention',
  'wildcard',
  'alert',
  'secret',
  'web',
  'dm',
  'group',
  'selfdm',
] as const;
export type Fixture = (typeof FIXTURES)[number];

export interface World {
  server: TestServer;
  othello: TestClient;
  hamlet: TestClient;
  cordelia: TestClient;
  id: Record<'hamlet' | 'othello' | 'cordelia', number>;
  stream: Record<'a' | 'b' | 'vault' | 'welcome', number>;
  msg: Record<Fixture, number>;
}

export interface NarrowCase {
  operator: string;
  operand: unknown | ((w: World) => unknown);
  /** the fixture messages the narrow matches now, after the changes made once all were sent */
  matches: Fixture[];
  /** what matched when each message was delivered, where a flag or reaction changed since */
  delivered?: Fixture[];
  /** also check the negated term, which must match exactly the other fixture messages */
  negate?: boolean;
  /**
   * why /register refuses it: a queue cannot decide it from the message it delivers, or it names
   * messages that exist (only refused narrows may name fixture messages: queues are registered first)
   */
  queueRefuses?: string;
}

const inA: Fixture[] = ['plain', 'link', 'image', 'attachment', 'own'];
const dms: Fixture[] = ['dm', 'group', 'selfdm'];
const fromOthers: Fixture[] = FIXTURES.filter((f) => f !== 'own' && f !== 'selfdm');

export const CASES: NarrowCase[] = [
  { operator: 'channel', operand: 'narrow-a', matches: [...inA, 'resolved'], negate: true },
  {
    operator: 'stream',
    operand: (w: World) => w.stream.a,
    matches: [...inA, 'resolved'],
    negate: true,
  },
  {
    operator: 'channel',
    operand: (w: World) => String(w.stream.b),
    matches: ['mention', 'wildcard', 'alert'],
  },
  { operator: 'stream', operand: 'NARROW-B', matches: ['mention', 'wildcard', 'alert'] },
  { operator: 'topic', operand: 'ALPHA', matches: inA, negate: true },
  { operator: 'subject', operand: 'beta', matches: ['mention', 'wildcard', 'alert'] },
  {
    operator: 'sender',
    operand: 'hamlet@example.com',
    matches: [
      'plain',
      'link',
      'image',
      'attachment',
      'resolved',
      'mention',
      'wildcard',
      'secret',
      'web',
      'dm',
    ],
    negate: true,
  },
  { operator: 'sender', operand: (w: World) => w.id.cordelia, matches: ['alert', 'group'] },
  { operator: 'sender', operand: 'me', matches: ['own', 'selfdm'] },
  { operator: 'dm', operand: (w: World) => [w.id.hamlet], matches: ['dm'], negate: true },
  { operator: 'dm', operand: 'hamlet@example.com', matches: ['dm'] },
  { operator: 'pm-with', operand: 'hamlet@example.com', matches: ['dm'] },
  {
    operator: 'dm',
    operand: (w: World) => [w.id.cordelia, w.id.hamlet],
    matches: ['group'],
    negate: true,
  },
  { operator: 'dm', operand: 'cordelia@example.com,hamlet@example.com', matches: ['group'] },
  { operator: 'dm', operand: (w: World) => [w.id.othello], matches: ['selfdm'] },
  {
    operator: 'dm-including',
    operand: (w: World) => w.id.hamlet,
    matches: ['dm', 'group'],
    negate: true,
  },
  { operator: 'group-pm-with', operand: 'cordelia@example.com', matches: ['group'] },
  { operator: 'dm-including', operand: 'othello@example.com', matches: dms },
  { operator: 'is', operand: 'dm', matches: dms, negate: true },
  { operator: 'is', operand: 'private', matches: dms },
  { operator: 'is', operand: 'starred', matches: ['plain'], delivered: [], negate: true },
  {
    operator: 'is',
    operand: 'unread',
    matches: fromOthers.filter((f) => f !== 'dm'),
    delivered: fromOthers,
    negate: true,
  },
  { operator: 'is', operand: 'mentioned', matches: ['mention', 'wildcard'], negate: true },
  { operator: 'is', operand: 'alerted', matches: ['alert'], negate: true },
  { operator: 'is', operand: 'resolved', matches: ['resolved'], negate: true },
  {
    operator: 'is',
    operand: 'followed',
    matches: inA,
    negate: true,
    queueRefuses: 'topics are followed and unfollowed after delivery',
  },
  { operator: 'has', operand: 'link', matches: ['link', 'image', 'attachment'], negate: true },
  { operator: 'has', operand: 'image', matches: ['image'], negate: true },
  { operator: 'has', operand: 'attachment', matches: ['image', 'attachment'], negate: true },
  { operator: 'has', operand: 'reaction', matches: ['link'], delivered: [], negate: true },
  {
    operator: 'search',
    operand: 'ZANZIBAR',
    matches: ['own'],
    negate: true,
    queueRefuses: 'upstream does not search events',
  },
  {
    operator: 'search',
    operand: 'pineapple',
    matches: ['alert'],
    queueRefuses: 'upstream does not search events',
  },
  {
    operator: 'search',
    operand: 'alpha',
    matches: inA,
    queueRefuses: 'a search looks at topics too',
  },
  {
    operator: 'id',
    operand: (w: World) => w.msg.link,
    matches: ['link'],
    negate: true,
    queueRefuses: 'the message exists before the queue',
  },
  {
    operator: 'id',
    operand: (w: World) => String(w.msg.dm),
    matches: ['dm'],
    queueRefuses: 'the message exists before the queue',
  },
  {
    operator: 'near',
    operand: (w: World) => w.msg.link,
    matches: [...FIXTURES],
    queueRefuses: 'near places a view, it filters nothing',
  },
  {
    operator: 'with',
    operand: (w: World) => w.msg.link,
    matches: inA,
    queueRefuses: 'with names a message that exists before the queue',
  },
  {
    operator: 'with',
    operand: (w: World) => String(w.msg.group),
    matches: ['group'],
    queueRefuses: 'with names a message that exists before the queue',
  },
  {
    operator: 'with',
    operand: 2147483000,
    matches: [...FIXTURES],
    queueRefuses: 'a message nobody may read leaves the narrow as it was',
  },
  {
    operator: 'channels',
    operand: 'public',
    negate: true,
    queueRefuses: 'channels change privacy after registration',
    matches: FIXTURES.filter((f) => f !== 'secret' && !dms.includes(f)),
  },
  {
    operator: 'channels',
    operand: 'web-public',
    matches: ['web'],
    negate: true,
    queueRefuses: 'channels change privacy after registration',
  },
  {
    operator: 'streams',
    operand: 'web-public',
    matches: ['web'],
    queueRefuses: 'channels change privacy after registration',
  },
];

/** Narrows every entry point refuses with BAD_NARROW, with the `desc` upstream gives. */
export const REFUSED: { narrow: unknown[]; desc: string }[] = [
  { narrow: [['colour', 'red']], desc: 'unknown operator colour' },
  {
    narrow: [{ operator: 'colour', operand: 'red', negated: true }],
    desc: 'unknown operator colour',
  },
  { narrow: [['is', 'purple']], desc: "unknown 'is' operand purple" },
  { narrow: [['is', 'muted']], desc: "unknown 'is' operand muted" },
  { narrow: [['has', 'emoji']], desc: "unknown 'has' operand emoji" },
  { narrow: [['channels', 'private']], desc: 'unknown channels operand private' },
  { narrow: [['channel', 'atlantis']], desc: 'unknown channel atlantis' },
  { narrow: [['sender', 'nobody@example.com']], desc: 'unknown user nobody@example.com' },
  { narrow: [['dm', 'nobody@example.com']], desc: 'unknown user in nobody@example.com' },
  { narrow: [['dm-including', 'nobody@example.com']], desc: 'unknown user nobody@example.com' },
  { narrow: [['id', 'x']], desc: 'Invalid message ID' },
  { narrow: [['with', 'x']], desc: "Invalid 'with' operator" },
];

/** Every fixture message but those listed. */
export const others = (matched: Fixture[]): Fixture[] =>
  FIXTURES.filter((f) => !matched.includes(f));

export const operandOf = (c: NarrowCase, w: World): unknown =>
  typeof c.operand === 'function' ? c.operand(w) : c.operand;

/** A case's label in test names: `-has:link`, `dm:[7,9]`. */
export const label = (c: NarrowCase, negated: boolean) =>
  `${negated ? '-' : ''}${c.operator}:${typeof c.operand === 'function' ? '(by id)' : String(c.operand)}`;

async function ok(r: Promise<{ status: number; body: any }>) {
  const res = await r;
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** A PNG or PDF uploaded by `who`, for messages that link it. */
async function upload(who: TestClient, name: string, type: string): Promise<string> {
  return (
    await ok(
      who.post('/user_uploads', {
        file: new File([Buffer.from([0x89, 0x50, 0x4e, 0x47])], name, { type }),
      }),
    )
  ).url;
}

/** Users, channels and uploads, everything before the first fixture message. */
export async function prepareWorld(server: TestServer): Promise<Omit<World, 'msg'>> {
  const [othello, hamlet, cordelia] = await Promise.all(
    ['othello', 'hamlet', 'cordelia'].map((n) =>
      TestClient.login(server.url, `${n}@example.com`, DEMO_PASSWORD),
    ),
  );
  const userId = async (c: TestClient) => (await ok(c.get('/users/me'))).user_id as number;
  const id = {
    othello: await userId(othello),
    hamlet: await userId(hamlet),
    cordelia: await userId(cordelia),
  };
  const everyone = [id.hamlet, id.othello, id.cordelia];
  await ok(
    hamlet.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'narrow-a' }, { name: 'narrow-b' }],
      principals: everyone,
    }),
  );
  await ok(
    hamlet.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'vault' }],
      invite_only: true,
      principals: [id.hamlet, id.othello],
    }),
  );
  const streamId = async (name: string) =>
    (await ok(othello.get('/get_stream_id', { stream: name }))).stream_id as number;
  const stream = {
    a: await streamId('narrow-a'),
    b: await streamId('narrow-b'),
    vault: await streamId('vault'),
    welcome: await streamId('welcome'),
  };
  await ok(othello.post('/users/me/alert_words', { alert_words: ['pineapple'] }));
  // Sending would follow othello's topics by itself: is:followed is only what he chose below.
  await ok(othello.patch('/settings', { automatically_follow_topics_policy: 4 }));
  return { server, othello, hamlet, cordelia, id, stream };
}

/** Sends the fixture messages in the order of FIXTURES. */
export async function sendFixtures(w: Omit<World, 'msg'>): Promise<World['msg']> {
  const image = await upload(w.hamlet, 'scene.png', 'image/png');
  const pdf = await upload(w.hamlet, 'notes.pdf', 'application/pdf');
  const toStream = (who: TestClient, to: number, topic: string, content: string) =>
    ok(who.post('/messages', { type: 'stream', to: String(to), topic, content }));
  const toUsers = (who: TestClient, to: number[], content: string) =>
    ok(who.post('/messages', { type: 'direct', to: JSON.stringify(to), content }));
  const sends: Record<Fixture, () => Promise<{ id: number }>> = {
    plain: () => toStream(w.hamlet, w.stream.a, 'alpha', 'plain words here'),
    link: () => toStream(w.hamlet, w.stream.a, 'alpha', 'see https://example.com/page'),
    image: () => toStream(w.hamlet, w.stream.a, 'alpha', `look: [scene.png](${image})`),
    attachment: () => toStream(w.hamlet, w.stream.a, 'alpha', `read [notes.pdf](${pdf})`),
    own: () => toStream(w.othello, w.stream.a, 'alpha', 'my own Zanzibar note'),
    resolved: () => toStream(w.hamlet, w.stream.a, '✔ fixed', 'all done'),
    mention: () => toStream(w.hamlet, w.stream.b, 'beta', '@**Othello, the Moor of Venice** look'),
    wildcard: () => toStream(w.hamlet, w.stream.b, 'beta', '@**all** heads up'),
    alert: () => toStream(w.cordelia, w.stream.b, 'beta', 'who likes PINEAPPLE?'),
    secret: () => toStream(w.hamlet, w.stream.vault, 'gamma', 'between us'),
    web: () => toStream(w.hamlet, w.stream.welcome, 'visitors', 'hello visitors'),
    dm: () => toUsers(w.hamlet, [w.id.othello], 'just us'),
    group: () => toUsers(w.cordelia, [w.id.othello, w.id.hamlet], 'all three'),
    selfdm: () => toUsers(w.othello, [w.id.othello], 'note to self'),
  };
  const msg = {} as World['msg'];
  for (const f of FIXTURES) msg[f] = (await sends[f]()).id;
  return msg;
}

/** What changes after delivery: a star, a reaction, a message read, a topic followed. */
export async function changeAfterDelivery(w: World) {
  await ok(
    w.othello.post('/messages/flags', {
      messages: JSON.stringify([w.msg.plain]),
      op: 'add',
      flag: 'starred',
    }),
  );
  await ok(w.cordelia.post(`/messages/${w.msg.link}/reactions`, { emoji_name: 'thumbs_up' }));
  await ok(
    w.othello.post('/messages/flags', {
      messages: JSON.stringify([w.msg.dm]),
      op: 'add',
      flag: 'read',
    }),
  );
  await ok(
    w.othello.post('/user_topics', { stream_id: w.stream.a, topic: 'alpha', visibility_policy: 3 }),
  );
}
