import { createUser } from '../../actions/users.js';
import { ROLE } from '../../domain/roles.js';
import { DEMO_PASSWORD, type TestServer } from '../harness.js';
import { TestClient, type ApiResult } from '../client.js';
import { queuedMails } from '../mailbox.js';
import type { Actor, World } from './types.js';

export const TOPIC = 'matrix';
export const POLICIES = {
  create_public_stream_policy: 4, // moderators
  create_private_stream_policy: 2, // administrators
  create_web_public_stream_policy: 7, // owners
  invite_to_stream_policy: 4, // moderators
};

/** A 1x1 PNG, for custom emoji. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

export function must(r: ApiResult, what: string): any {
  if (r.status !== 200)
    throw new Error(`matrix setup: ${what} failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const DEMO: Record<string, string> = {
  guest: 'polonius',
  member: 'othello',
  moderator: 'shiva',
  administrator: 'iago',
  owner: 'desdemona',
};
const KIND_ROLE = {
  guest: ROLE.GUEST,
  member: ROLE.MEMBER,
  moderator: ROLE.MODERATOR,
  administrator: ROLE.ADMINISTRATOR,
  owner: ROLE.OWNER,
};

export async function buildWorld(server: TestServer): Promise<World> {
  const url = server.url;
  const realm = await server.ctx.db
    .selectFrom('realms')
    .selectAll()
    .orderBy('id')
    .executeTakeFirstOrThrow();
  let counter = 0;
  const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${counter++}`;
  const login = (name: string) => TestClient.login(url, `${name}@example.com`, DEMO_PASSWORD);

  const [guest, member, moderator, administrator, owner, cordelia, hamlet] = await Promise.all(
    [
      DEMO.guest,
      DEMO.member,
      DEMO.moderator,
      DEMO.administrator,
      DEMO.owner,
      'cordelia',
      'hamlet',
    ].map(login),
  );
  const botRow = await server.ctx.db
    .selectFrom('users')
    .select(['email', 'api_key'])
    .where('email', '=', 'hamlet-bot@parley.bots')
    .executeTakeFirstOrThrow();
  const bot = new TestClient(url, botRow.email, botRow.api_key);

  const newAccount = async (role: number, isBot = false) => {
    const email = isBot ? `${unique('bot')}@parley.bots` : `${unique('u')}@example.com`;
    const user = await createUser(server.ctx, realm, {
      email,
      fullName: unique('Matrix '),
      password: isBot ? null : DEMO_PASSWORD,
      role,
      isBot,
      botOwnerId: isBot ? await idOf(hamlet) : undefined,
      defaultStreams: false,
    });
    return {
      id: user.id,
      client: new TestClient(url, user.email, user.api_key),
      email: user.email,
    };
  };
  const idOf = async (c: TestClient) =>
    (must(await c.get('/users/me'), 'GET /users/me') as any).user_id as number;
  const deactivate = async (id: number) =>
    must(await owner.delete(`/users/${id}`), `deactivating user ${id}`);
  const streamId = async (name: string) =>
    must(await cordelia.get('/get_stream_id', { stream: name }), `id of ${name}`)
      .stream_id as number;
  const leave = (c: TestClient, name: string) =>
    c.delete('/users/me/subscriptions', { subscriptions: [name] });

  const former = await newAccount(ROLE.MEMBER);
  const cordeliaId = await idOf(cordelia);
  const stream = {
    design: await streamId('design'),
    welcome: await streamId('welcome'),
    engineering: await streamId('engineering'),
  };

  // Checked, since every row relies on it: they were in design and are out now.
  const leaveDesign = async (c: TestClient) => {
    const left = must(await leave(c, 'design'), 'leaving design');
    if (!left.removed?.includes('design'))
      throw new Error(`matrix setup: ${c.email} did not leave design: ${JSON.stringify(left)}`);
  };
  // Owner and administrator leave before the matrix's messages are sent, so that none of them is
  // theirs: what they are shown of design is what their role shows them, not what they received.
  for (const c of [owner, administrator]) await leaveDesign(c);
  // The former subscriber joins design and receives its messages before leaving.
  must(
    await cordelia.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'design' }],
      principals: [former.id],
    }),
    'subscribing the former subscriber',
  );
  const file = must(
    await cordelia.post('/user_uploads', {
      file: new File(['secret mockup'], 'mockup.txt', { type: 'text/plain' }),
    }),
    'upload',
  );
  const upload = new URL(file.url ?? file.uri, url).pathname;
  const send = async (content: string, to = 'design') =>
    must(
      await cordelia.post('/messages', { type: 'stream', to, topic: TOPIC, content }),
      `sending to ${to}`,
    ).id as number;
  const message = await send(`The mockup: [mockup.txt](${upload})`);
  const received: number[] = [];
  for (let i = 0; i < 64; i++) received.push(await send(`critique ${i}`));
  const welcomeMessage = await send('Welcome, visitors', 'welcome');
  await leaveDesign(former.client);

  must(await owner.patch('/realm', POLICIES), 'pinning the channel policies');
  const realmState = must(
    await owner.post('/register', { fetch_event_types: ['realm'] }),
    'register',
  );
  for (const [k, v] of Object.entries(POLICIES))
    if (realmState[`realm_${k}`] !== v)
      throw new Error(`matrix setup: realm_${k} is ${realmState[`realm_${k}`]}, not ${v}`);

  const userGroup = async () => {
    const name = unique('Matrix group ');
    must(
      await owner.post('/user_groups/create', {
        name,
        description: 'matrix',
        members: [cordeliaId],
      }),
      'group',
    );
    const groups = must(await owner.get('/user_groups'), 'groups').user_groups as any[];
    return groups.find((g) => g.name === name).id as number;
  };
  const profileField = async () =>
    must(
      await owner.post('/realm/profile_fields', { name: unique('Field '), field_type: 1 }),
      'profile field',
    ).id as number;
  const linkifier = async () =>
    must(
      await owner.post('/realm/filters', {
        pattern: `#${unique('mx')}(?P<id>[0-9]+)`,
        url_template: 'https://example.com/{id}',
      }),
      'linkifier',
    ).id as number;
  const defaultStreamGroup = async () => {
    const name = unique('Matrix defaults ');
    must(
      await owner.post('/default_stream_groups/create', {
        group_name: name,
        description: 'matrix',
        stream_names: ['engineering'],
      }),
      'default channel group',
    );
    const groups = must(
      await owner.post('/register', { fetch_event_types: ['default_stream_groups'] }),
      'register',
    ).realm_default_stream_groups as any[];
    return groups.find((g) => g.name === name).id as number;
  };
  const draft = async () =>
    must(
      await cordelia.post('/drafts', {
        drafts: [{ type: 'stream', to: [stream.engineering], topic: TOPIC, content: 'draft' }],
      }),
      'draft',
    ).ids[0] as number;
  const scheduled = async () =>
    must(
      await cordelia.post('/scheduled_messages', {
        type: 'stream',
        to: String(stream.engineering),
        topic: TOPIC,
        content: 'later',
        scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 86400,
      }),
      'scheduled message',
    ).scheduled_message_id as number;
  const newQueue = async () =>
    must(await cordelia.post('/register', { event_types: ['message'] }), 'queue')
      .queue_id as string;
  const queue = await newQueue();
  const designTopic = async () => {
    const topic = unique('topic ');
    must(
      await cordelia.post('/messages', {
        type: 'stream',
        to: 'design',
        topic,
        content: 'short-lived',
      }),
      'topic in design',
    );
    return topic;
  };
  // Someone to find present, for the presence rows.
  must(await cordelia.post('/users/me/presence', { status: 'active' }), 'presence');

  const outbox = async (to: string) => {
    const mail = (await queuedMails(server)).filter((m) => m.to === to).pop();
    if (!mail) throw new Error(`matrix setup: no mail to ${to}`);
    return { link: new URL(mail.link).pathname };
  };
  const pendingInvites = async (c: TestClient) =>
    must(await c.get('/invites'), 'GET /invites').invites as any[];
  const invite = async (inviteAs: number = ROLE.MEMBER, by = owner) => {
    const email = `${unique('invitee')}@example.com`;
    must(
      await by.post('/invites', { invitee_emails: email, stream_ids: [], invite_as: inviteAs }),
      'invitation',
    );
    return (await pendingInvites(by)).find((i) => i.email === email).id as number;
  };
  const multiuse = async (by = owner) => {
    const link = new URL(
      must(await by.post('/invites/multiuse', { stream_ids: [] }), 'reusable link').invite_link,
    ).pathname;
    const id = (await pendingInvites(by)).find(
      (i) => i.link_url && new URL(i.link_url).pathname === link,
    ).id as number;
    return { id, link };
  };
  const emoji = async () => {
    const name = unique('mx').toLowerCase();
    must(
      await cordelia.post(`/realm/emoji/${name}`, {
        file: new File([PNG], 'e.png', { type: 'image/png' }),
      }),
      'emoji',
    );
    return name;
  };
  const emojiName = await emoji();
  const emojiList = must(await cordelia.get('/realm/emoji'), 'emoji list').emoji as Record<
    string,
    any
  >;
  const emojiImage = new URL(
    Object.values(emojiList).find((e) => e.name === emojiName).source_url,
    url,
  ).pathname;

  const confirmation = async (link: string) => {
    const email = `${unique('joiner')}@example.com`;
    const r = await fetch(`${url}${link}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email }).toString(),
    });
    if (r.status !== 200)
      throw new Error(`matrix setup: starting a sign-up through ${link} answered ${r.status}`);
    return { email, link: (await outbox(email)).link };
  };

  // An administrator invites, then is deactivated: their invitations must die with them, and so
  // must a sign-up someone started through their reusable link but had not confirmed yet.
  const deactivatedInviter = async () => {
    const inviter = await newAccount(ROLE.ADMINISTRATOR);
    const inviteId = await invite(ROLE.MEMBER, inviter.client);
    const reusable = await multiuse(inviter.client);
    const email = (await pendingInvites(inviter.client)).find((i) => i.id === inviteId)
      .email as string;
    const link = (await outbox(email)).link;
    const started = await confirmation(reusable.link);
    await deactivate(inviter.id);
    return {
      invite: inviteId,
      link,
      multiuse: reusable.id,
      multiuseLink: reusable.link,
      confirmLink: started.link,
    };
  };

  const gone = await newAccount(ROLE.MEMBER);
  await deactivate(gone.id);

  const as: Record<Actor, TestClient> = {
    spectator: new TestClient(url),
    guest,
    member,
    moderator,
    administrator,
    owner,
    deactivated: gone.client,
    bot,
    formerSubscriber: former.client,
    deactivatedInviter: owner,
  };
  const privateOrPublic = async (inviteOnly: boolean) => {
    const name = unique('matrix-');
    must(
      await owner.post('/users/me/subscriptions', {
        subscriptions: [{ name }],
        invite_only: inviteOnly,
        principals: inviteOnly ? [cordeliaId, former.id] : [cordeliaId],
      }),
      `creating ${name}`,
    );
    // The creator is not meant to be in it; the former subscriber leaves it.
    await leave(owner, name);
    if (inviteOnly) await leave(former.client, name);
    return { id: await streamId(name), name };
  };
  return {
    server,
    realmId: realm.id,
    as,
    cordelia,
    id: { cordelia: cordeliaId },
    stream,
    message,
    upload,
    welcomeMessage,
    receivedMessage: () => {
      const id = received.shift();
      if (id === undefined)
        throw new Error('matrix setup: out of received messages; raise the count in buildWorld');
      return id;
    },
    shared: {
      group: await userGroup(),
      profileField: await profileField(),
      linkifier: await linkifier(),
      defaultStreamGroup: await defaultStreamGroup(),
    },
    emojiImage,
    queue,
    ownerInvite: await invite(ROLE.OWNER),
    unique,
    account: (kind) =>
      kind === 'bot' ? newAccount(ROLE.MEMBER, true) : newAccount(KIND_ROLE[kind]),
    deactivatedAccount: async () => {
      const a = await newAccount(ROLE.MEMBER);
      await deactivate(a.id);
      return a;
    },
    privateStream: () => privateOrPublic(true),
    publicStream: () => privateOrPublic(false),
    userGroup,
    defaultStreamGroup,
    linkifier,
    profileField,
    invite: (inviteAs) => invite(inviteAs),
    multiuse: () => multiuse(),
    emoji,
    outbox,
    draft,
    scheduled,
    newQueue,
    designTopic,
    deactivatedInviter,
    confirmation,
  };
}
