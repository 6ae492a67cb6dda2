import type { MarkdownIt, StateInline } from 'markdown-it';
import { atWordStart, matchHere, pushHtml } from './inline.js';
import { escapeHtml, streamNarrowUrl, topicNarrowUrl } from './links.js';
import {
  renderEnv,
  type MarkdownStream,
  type MarkdownUserGroup,
  type MentionableUser,
  type Lookups,
  type RenderEnv,
} from './types.js';

const STREAM_WILDCARDS = new Set(['all', 'everyone', 'stream', 'channel']);

/**
 * Everything in `list` whose name matches `name` case-insensitively. The first few lookups of a
 * render scan the list (cheap, and most messages mention no one or one person); after that the
 * list is indexed once so that messages with many mentions stay linear.
 */
function byName<T>(
  env: RenderEnv,
  kind: keyof Lookups,
  list: readonly T[],
  nameOf: (t: T) => string,
  name: string,
): T[] {
  const lower = name.toLowerCase();
  let index = env.lookups[kind] as Map<string, T[]> | undefined;
  if (!index && (env.lookups.scans = (env.lookups.scans ?? 0) + 1) <= 4) {
    return list.filter((t) => {
      const n = nameOf(t);
      return (n.length === name.length || n.length === lower.length) && n.toLowerCase() === lower;
    });
  }
  if (!index) {
    index = new Map();
    for (const t of list) {
      const key = nameOf(t).toLowerCase();
      const entries = index.get(key);
      if (entries) entries.push(t);
      else index.set(key, [t]);
    }
    (env.lookups as Record<string, unknown>)[kind] = index;
  }
  return index.get(lower) ?? [];
}

function userById(env: RenderEnv, id: number): MentionableUser | undefined {
  return env.ctx.users.find((u) => u.id === id);
}

function groupByName(env: RenderEnv, name: string): MarkdownUserGroup | undefined {
  return byName(env, 'groups', env.ctx.userGroups ?? [], (g) => g.name, name)[0];
}

function streamByName(env: RenderEnv, name: string): MarkdownStream | undefined {
  return byName(env, 'streams', env.ctx.streams, (s) => s.name, name)[0];
}

/**
 * The user a mention refers to. `Name|id` selects by id. A bare name must identify one user:
 * an active one if there is exactly one, else a lone deactivated one; ambiguous names match nobody.
 */
function findUser(env: RenderEnv, ref: string): MentionableUser | undefined {
  const bar = ref.lastIndexOf('|');
  if (bar >= 0) {
    const idText = ref.slice(bar + 1);
    if (/^\d{1,15}$/.test(idText)) return userById(env, Number(idText));
  }
  const candidates = byName(env, 'users', env.ctx.users, (u) => u.full_name, ref);
  if (!candidates.length) return undefined;
  if (candidates.length === 1) return candidates[0];
  const active = candidates.filter((u) => u.is_active !== false);
  return active.length === 1 ? active[0] : undefined;
}

function userMentionHtml(env: RenderEnv, ref: string, silent: boolean): string | null {
  const cls = silent ? ' silent' : '';
  const at = silent ? '' : '@';
  const lower = ref.toLowerCase();
  if (STREAM_WILDCARDS.has(lower)) {
    if (!silent) env.streamWildcard = true;
    return `<span class="user-mention channel-wildcard-mention${cls}" data-user-id="*">${at}${escapeHtml(ref)}</span>`;
  }
  if (lower === 'topic') {
    if (!silent) env.topicWildcard = true;
    return `<span class="topic-mention${cls}">${at}${escapeHtml(ref)}</span>`;
  }
  const user = findUser(env, ref);
  if (!user) return null;
  // Deactivated users render as mentions but are not notified.
  if (!silent && user.is_active !== false) env.mentionedUserIds.add(user.id);
  return `<span class="user-mention${cls}" data-user-id="${escapeHtml(String(user.id))}">${at}${escapeHtml(user.full_name)}</span>`;
}

function groupMentionHtml(env: RenderEnv, ref: string, silent: boolean): string | null {
  const group = groupByName(env, ref);
  if (!group) return null;
  if (!silent) env.mentionedGroupIds.add(group.id);
  const cls = silent ? ' silent' : '';
  return `<span class="user-group-mention${cls}" data-user-group-id="${escapeHtml(String(group.id))}">${silent ? '' : '@'}${escapeHtml(group.name)}</span>`;
}

const USER_MENTION = /@(_?)\*\*([^*\n]{1,150})\*\*/y;
const GROUP_MENTION = /@(_?)\*([^*\n]{1,150})\*/y;

/** @**Name**, @**Name|id**, @_**Name** (silent), the wildcards, @*group* and @_*group*. */
function mentionRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x40 /* @ */) return false;
  const env = renderEnv(state.env);
  if (!env || !atWordStart(state)) return false;
  let html: string | null = null;
  let length = 0;
  const user = matchHere(state, USER_MENTION);
  if (user) {
    html = userMentionHtml(env, user[2]!, user[1] === '_');
    length = user[0].length;
  } else {
    const group = matchHere(state, GROUP_MENTION);
    if (group) {
      html = groupMentionHtml(env, group[2]!, group[1] === '_');
      length = group[0].length;
    }
  }
  if (html === null) return false;
  if (!silent) pushHtml(state, html);
  state.pos += length;
  return true;
}

const STREAM_LINK = /#\*\*([^*\n]{1,200})\*\*/y;

function streamLinkHtml(env: RenderEnv, body: string): string | null {
  // Stream names may contain '>' too: split at the first '>' after which a known stream ends.
  for (
    let gt = body.indexOf('>'), tries = 0;
    gt > 0 && gt < body.length - 1 && tries < 20;
    gt = body.indexOf('>', gt + 1), tries++
  ) {
    const stream = streamByName(env, body.slice(0, gt));
    if (stream) {
      const topic = body.slice(gt + 1);
      const href = escapeHtml(topicNarrowUrl(stream.id, stream.name, topic));
      return `<a class="stream-topic" data-stream-id="${escapeHtml(String(stream.id))}" href="${href}">#${escapeHtml(stream.name)} &gt; ${escapeHtml(topic)}</a>`;
    }
  }
  const stream = streamByName(env, body);
  if (!stream) return null;
  const href = escapeHtml(streamNarrowUrl(stream.id, stream.name));
  return `<a class="stream" data-stream-id="${escapeHtml(String(stream.id))}" href="${href}">#${escapeHtml(stream.name)}</a>`;
}

/** #**stream** and #**stream>topic**; unknown streams stay as typed. */
function streamLinkRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x23 /* # */) return false;
  const env = renderEnv(state.env);
  if (!env || !atWordStart(state)) return false;
  const m = matchHere(state, STREAM_LINK);
  if (!m) return false;
  const html = streamLinkHtml(env, m[1]!);
  if (html === null) return false;
  if (!silent) pushHtml(state, html);
  state.pos += m[0].length;
  return true;
}

/**
 * Unknown mentions and stream links stay as the literal text typed (rather than turning into
 * bold): the whole `@**...**` / `#**...**` is consumed as plain text.
 */
const LITERAL = /@_?\*\*[^*\n]{1,150}\*\*|@_?\*[^*\n]{1,150}\*|#\*\*[^*\n]{1,200}\*\*/y;

function literalRule(state: StateInline, silent: boolean): boolean {
  const c = state.src.charCodeAt(state.pos);
  if ((c !== 0x40 && c !== 0x23) || !renderEnv(state.env) || !atWordStart(state)) return false;
  const m = matchHere(state, LITERAL);
  if (!m) return false;
  if (!silent) state.pending += m[0];
  state.pos += m[0].length;
  return true;
}

export function mentionsPlugin(md: MarkdownIt): void {
  md.inline.ruler.before('emphasis', 'zulip_mention', mentionRule);
  md.inline.ruler.before('emphasis', 'zulip_stream_link', streamLinkRule);
  md.inline.ruler.after('zulip_stream_link', 'zulip_unknown_mention', literalRule);
}

/** What a message's Markdown may look up in its context: the rules above, found without rendering. */
export interface MarkdownReferences {
  /** names after @** or @_** (lower-cased as the lookups compare them) */
  userNames: string[];
  /** ids of @**Name|id** */
  userIds: number[];
  /** whether any @*group* may occur */
  groups: boolean;
  /** names a #**stream** or #**stream>topic** link may name (lower-cased) */
  streamNames: string[];
  /** whether any :shortcode: may name a custom emoji */
  emoji: boolean;
}

const EMOJI_ANYWHERE = /:[a-z0-9_+-]{1,60}:/;

/**
 * Every name and id the rules above could look up while rendering `content`: each `@` and `#`
 * is tried where it stands, as the inline rules do (nested renders of quotes and spoilers only
 * see parts of the same text), so the answer is a superset of what the render asks. A sender's
 * context can then hold just these people and channels rather than the whole organization.
 */
export function markdownReferences(content: string): MarkdownReferences {
  const userNames = new Set<string>();
  const userIds = new Set<number>();
  const streamNames = new Set<string>();
  let groups = false;
  const at = (re: RegExp, i: number) => {
    re.lastIndex = i;
    return re.exec(content);
  };
  for (let i = content.indexOf('@'); i >= 0; i = content.indexOf('@', i + 1)) {
    const user = at(USER_MENTION, i);
    if (user) {
      const ref = user[2]!;
      userNames.add(ref.toLowerCase());
      const bar = ref.lastIndexOf('|');
      if (bar >= 0 && /^\d{1,15}$/.test(ref.slice(bar + 1)))
        userIds.add(Number(ref.slice(bar + 1)));
    } else if (at(GROUP_MENTION, i)) groups = true;
  }
  for (let i = content.indexOf('#'); i >= 0; i = content.indexOf('#', i + 1)) {
    const link = at(STREAM_LINK, i);
    if (!link) continue;
    const body = link[1]!;
    streamNames.add(body.toLowerCase());
    for (let gt = body.indexOf('>'); gt > 0; gt = body.indexOf('>', gt + 1))
      streamNames.add(body.slice(0, gt).toLowerCase());
  }
  return {
    userNames: [...userNames],
    userIds: [...userIds],
    groups,
    streamNames: [...streamNames],
    emoji: EMOJI_ANYWHERE.test(content),
  };
}
