import type { MarkdownIt } from 'markdown-it';
import type { StateInline } from 'markdown-it';
import { escapeHtml, streamNarrowUrl, topicNarrowUrl } from './links.js';
import type { MarkdownContext } from './types.js';

export interface RenderEnv {
  ctx: MarkdownContext;
  mentionedUserIds: Set<number>;
  mentionedGroupIds: Set<number>;
  streamWildcard: boolean;
  topicWildcard: boolean;
}

const STREAM_WILDCARDS = new Set(['all', 'everyone', 'stream', 'channel']);

/** @**Name**, @**Name|id**, @_**Name** (silent), @*group*, @_*group*, and the wildcards. */
function mentionRule(state: StateInline, silent: boolean): boolean {
  const src = state.src.slice(state.pos);
  const m = /^@(_?)(\*\*([^*\n]{1,100})\*\*|\*([^*\n]{1,100})\*)/.exec(src);
  if (!m) return false;
  const env = state.env as unknown as RenderEnv;
  if (!env?.ctx) return false;
  const isSilent = m[1] === '_';
  const userRef = m[3];
  const groupRef = m[4];
  let html: string | null = null;
  if (userRef !== undefined) {
    const [rawName, idPart] = userRef.split('|');
    const name = rawName.trim();
    const lower = name.toLowerCase();
    if (idPart === undefined && STREAM_WILDCARDS.has(lower)) {
      if (!isSilent) env.streamWildcard = true;
      html = `<span class="user-mention channel-wildcard-mention${isSilent ? ' silent' : ''}" data-user-id="*">${isSilent ? '' : '@'}${escapeHtml(name)}</span>`;
    } else if (idPart === undefined && lower === 'topic') {
      if (!isSilent) env.topicWildcard = true;
      html = `<span class="topic-mention${isSilent ? ' silent' : ''}">${isSilent ? '' : '@'}${escapeHtml(name)}</span>`;
    } else {
      const id = idPart !== undefined && /^\d+$/.test(idPart.trim()) ? Number(idPart.trim()) : null;
      const user = id !== null
        ? env.ctx.users.find((u) => u.id === id)
        : env.ctx.users.find((u) => u.full_name.toLowerCase() === lower);
      if (user) {
        if (!isSilent) env.mentionedUserIds.add(user.id);
        html = `<span class="user-mention${isSilent ? ' silent' : ''}" data-user-id="${user.id}">${isSilent ? '' : '@'}${escapeHtml(user.full_name)}</span>`;
      }
    }
  } else if (groupRef !== undefined) {
    const lower = groupRef.trim().toLowerCase();
    const group = env.ctx.userGroups?.find((g) => g.name.toLowerCase() === lower);
    if (group) {
      if (!isSilent) env.mentionedGroupIds.add(group.id);
      html = `<span class="user-group-mention${isSilent ? ' silent' : ''}" data-user-group-id="${group.id}">${isSilent ? '' : '@'}${escapeHtml(group.name)}</span>`;
    }
  }
  if (html === null) return false;
  if (!silent) {
    const token = state.push('html_inline', '', 0);
    token.content = html;
  }
  state.pos += m[0].length;
  return true;
}

/** #**stream** and #**stream>topic** */
function streamLinkRule(state: StateInline, silent: boolean): boolean {
  const m = /^#\*\*([^*\n>]{1,60})(?:>([^*\n]{1,60}))?\*\*/.exec(state.src.slice(state.pos));
  if (!m) return false;
  const env = state.env as unknown as RenderEnv;
  if (!env?.ctx) return false;
  const stream = env.ctx.streams.find((s) => s.name.toLowerCase() === m[1].trim().toLowerCase());
  if (!stream) return false;
  if (!silent) {
    const token = state.push('html_inline', '', 0);
    const topic = m[2];
    token.content = topic === undefined
      ? `<a class="stream" data-stream-id="${stream.id}" href="${escapeHtml(streamNarrowUrl(stream.id, stream.name))}">#${escapeHtml(stream.name)}</a>`
      : `<a class="stream-topic" data-stream-id="${stream.id}" href="${escapeHtml(topicNarrowUrl(stream.id, stream.name, topic))}">#${escapeHtml(stream.name)} &gt; ${escapeHtml(topic)}</a>`;
  }
  state.pos += m[0].length;
  return true;
}

export function mentionsPlugin(md: MarkdownIt) {
  md.inline.ruler.before('emphasis', 'zulip_mention', mentionRule);
  md.inline.ruler.before('emphasis', 'zulip_stream_link', streamLinkRule);
}
