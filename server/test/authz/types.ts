import type { ApiResult, TestClient } from '../client.js';
import type { TestServer } from '../harness.js';

/**
 * Who calls. Every actor but `spectator` and `deactivatedInviter` holds API credentials; see
 * world.ts for who each one is. None of them is subscribed to the private channel `design`.
 */
export const ACTORS = [
  'spectator',
  'guest',
  'member',
  'moderator',
  'administrator',
  'owner',
  'deactivated',
  'bot',
  'formerSubscriber',
  'deactivatedInviter',
] as const;
export type Actor = (typeof ACTORS)[number];

/** The actors every row must decide about explicitly (the others have defaults). */
export const ACCOUNTS = [
  'guest',
  'member',
  'moderator',
  'administrator',
  'owner',
  'bot',
  'formerSubscriber',
] as const;
export const accountsBut = (...out: Actor[]) => ACCOUNTS.filter((a) => !out.includes(a));

/** What the reference server answers an actor. */
export type Outcome =
  | { kind: 'ok' }
  /** allowed, but the row's target must not appear in the answer (lists, searches, snapshots) */
  | { kind: 'hidden' }
  /** refused: the status, and the code and message when the reference gives them (HTML pages have none) */
  | { kind: 'refused'; status: number; code?: string; msg?: string | RegExp };

export const ok: Outcome = { kind: 'ok' };
export const hidden: Outcome = { kind: 'hidden' };
export const refused = (status: number, code?: string, msg?: string | RegExp): Outcome => ({
  kind: 'refused',
  status,
  code,
  msg,
});
/** A JsonableError: 400 BAD_REQUEST with this message. */
export const bad = (msg: string | RegExp) => refused(400, 'BAD_REQUEST', msg);

// The reference server's refusals, by the exception that raises them.
export const unauthorized = refused(401, 'UNAUTHORIZED');
export const userDeactivated = refused(401, 'USER_DEACTIVATED');
export const adminRequired = refused(
  400,
  'UNAUTHORIZED_PRINCIPAL',
  'Must be an organization administrator',
);
export const ownerRequired = refused(
  400,
  'UNAUTHORIZED_PRINCIPAL',
  'Must be an organization owner',
);
export const insufficient = bad('Insufficient permission');
export const invalidMessage = bad('Invalid message(s)');
export const invalidChannel = bad('Invalid channel ID');
export const guestsRefused = bad('Not allowed for guest users');
export const botsRefused = bad('This endpoint does not accept bot requests.');
/** ResourceNotFoundError: objects that belong to someone else are not found. */
export const notFound = (msg: string) => refused(404, 'BAD_REQUEST', msg);
/** require_member_or_admin, in front of many endpoints. */
export const membersOnly = { guest: guestsRefused, bot: botsRefused } as const;

/**
 * Who may call: `allow` and `hide` list actors that succeed, `deny` gives the refusal of others,
 * and `rest` answers for every account the row does not name. Without a word on them, spectators
 * get 401 UNAUTHORIZED and deactivated users 401 USER_DEACTIVATED; `deactivatedInviter` only
 * takes part in the rows that name it.
 */
export interface Who {
  allow?: readonly Actor[];
  hide?: readonly Actor[];
  deny?: Partial<Record<Actor, Outcome>>;
  rest?: Outcome;
}

/**
 * The demo organization arranged for the matrix, as world.ts builds it. Nobody who acts is in
 * the private channel `design` (owner and administrator leave it); cordelia stays there and
 * creates its content; the former subscriber was in it, received its messages and left. Channel
 * creation and subscribing others are pinned to policies that split the roles (see POLICIES in
 * world.ts).
 */
export interface World {
  server: TestServer;
  realmId: number;
  /** the client each actor calls with; deactivatedInviter acts through the owner */
  as: Record<Actor, TestClient>;
  cordelia: TestClient;
  id: Record<'cordelia', number>;
  stream: Record<'design' | 'welcome' | 'engineering', number>;
  /** a message in `design`, in TOPIC, that the former subscriber received; it links UPLOAD */
  message: number;
  /** a file posted in that message: '/user_uploads/<realm>/<path>' */
  upload: string;
  welcomeMessage: number;
  /** another message in `design` the former subscriber received, for rows that change it */
  receivedMessage(): number;
  /** a user group whose only member is cordelia, a custom profile field, a linkifier, a default channel group */
  shared: { group: number; profileField: number; linkifier: number; defaultStreamGroup: number };
  emojiImage: string;
  /** cordelia's event queue */
  queue: string;
  /** an invitation to join as owner, sent by the owner */
  ownerInvite: number;
  unique(prefix: string): string;
  account(
    kind: 'guest' | 'member' | 'moderator' | 'administrator' | 'owner' | 'bot',
  ): Promise<{ id: number; client: TestClient; email: string }>;
  deactivatedAccount(): Promise<{ id: number; client: TestClient; email: string }>;
  privateStream(): Promise<{ id: number; name: string }>;
  publicStream(): Promise<{ id: number; name: string }>;
  userGroup(): Promise<number>;
  defaultStreamGroup(): Promise<number>;
  linkifier(): Promise<number>;
  profileField(): Promise<number>;
  /** an email invitation from the owner, to join with this role (member by default) */
  invite(inviteAs?: number): Promise<number>;
  multiuse(): Promise<{ id: number; link: string }>;
  emoji(): Promise<string>;
  /** cordelia's: a draft, a scheduled message, an event queue, a topic in design */
  draft(): Promise<number>;
  scheduled(): Promise<number>;
  newQueue(): Promise<string>;
  designTopic(): Promise<string>;
  /** invitations created by an administrator who was deactivated afterwards */
  deactivatedInviter(): Promise<{
    invite: number;
    link: string;
    multiuse: number;
    multiuseLink: string;
    confirmLink: string;
  }>;
  /** the path of the link in the newest mail to `to` */
  outbox(to: string): Promise<{ link: string }>;
  /** a sign-up started through a reusable link: the confirmation link mailed to the address */
  confirmation(link: string): Promise<{ email: string; link: string }>;
}

export interface Row<T = any> {
  /** 'METHOD /path' as registered under /api/v1 (fastify syntax) */
  route?: string;
  /** 'METHOD /path' of a route outside /api/v1 (pages, files) */
  page?: string;
  /** what this row checks, when a route has several rows */
  variant?: string;
  /** organization settings this row runs under (applied after the default rows) */
  realm?: 'spectatorsOff';
  who: Who;
  /**
   * Targets for the call. Runs once per row, or once per actor when `fresh` is set (rows that
   * change or use up their target); gets the actor so targets can depend on it.
   */
  setup?: (w: World, actor: Actor) => Promise<T>;
  fresh?: boolean;
  /** the row acts on the caller itself: each actor is a new account of the same kind */
  freshActor?: boolean;
  call: (c: TestClient, t: T, w: World, actor: Actor) => Promise<ApiResult>;
  /** for `hidden` outcomes: does this answer show the target? */
  reveals?: (body: any, t: T, w: World) => boolean;
  /** someone the target shows for (cordelia is in design), proving that `reveals` can see it */
  seenBy?: Actor | 'cordelia';
}

/** Each actor's expected outcome for a row (undefined: the actor takes no part). */
export function expectations(row: Row): Map<Actor, Outcome> {
  const out = new Map<Actor, Outcome>([
    ['spectator', unauthorized],
    ['deactivated', userDeactivated],
  ]);
  if (row.who.rest) for (const a of ACCOUNTS) out.set(a, row.who.rest);
  for (const a of row.who.allow ?? []) out.set(a, ok);
  for (const a of row.who.hide ?? []) out.set(a, hidden);
  for (const [a, o] of Object.entries(row.who.deny ?? {})) out.set(a as Actor, o);
  return out;
}

/** A row's name in test titles and failure messages. */
export const rowName = (row: Row) =>
  `${row.route ?? `${row.page} (page)`}${row.variant ? ` [${row.variant}]` : ''}${row.realm ? ` {${row.realm}}` : ''}`;

/** Why an answer does not match the expected outcome, or null when it does. */
export function mismatch(want: Outcome, got: ApiResult, revealed: () => boolean): string | null {
  const body =
    typeof got.body === 'string' ? got.body.slice(0, 160) : JSON.stringify(got.body)?.slice(0, 300);
  const said = `${got.status} ${body}`;
  if (want.kind !== 'refused') {
    if (got.status < 200 || got.status > 299) return `expected success, got ${said}`;
    if (want.kind === 'hidden' && revealed())
      return `expected the target to be hidden, but the answer shows it: ${said}`;
    return null;
  }
  const wanted = `${want.status}${want.code ? ` ${want.code}` : ''}${want.msg ? ` "${want.msg}"` : ''}`;
  const code = typeof got.body === 'object' ? got.body?.code : undefined;
  const msg = typeof got.body === 'object' ? String(got.body?.msg ?? '') : '';
  const msgOk = !want.msg || (typeof want.msg === 'string' ? msg === want.msg : want.msg.test(msg));
  if (got.status !== want.status || (want.code && code !== want.code) || !msgOk)
    return `expected ${wanted}, got ${said}`;
  return null;
}
