import MarkdownIt from 'markdown-it';
import { extrasPlugin } from './extras.js';
import { isSafeUrl } from './links.js';
import { linkifierPlugin } from './linkifiers.js';
import { mentionsPlugin, type RenderEnv } from './mentions.js';
import type { MarkdownContext, RenderResult } from './types.js';

export type { MarkdownContext, MentionableUser, RenderResult } from './types.js';
export { emojiCodeForName, emojiNameForCode } from './emoji.js';
export { streamNarrowUrl, topicNarrowUrl, hashEncode } from './links.js';
export { expandUrlTemplate } from './linkifiers.js';

/**
 * Zulip-flavoured Markdown to safe HTML. Raw HTML is never passed through (html: false), links
 * are limited to safe schemes, and every attribute we generate is escaped.
 */
const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false, maxNesting: 20 });
md.disable(['image']);
md.validateLink = isSafeUrl;
mentionsPlugin(md);
extrasPlugin(md);
linkifierPlugin(md);

export function renderMarkdown(content: string, ctx: MarkdownContext): RenderResult {
  const env: RenderEnv = {
    ctx,
    mentionedUserIds: new Set(),
    mentionedGroupIds: new Set(),
    streamWildcard: false,
    topicWildcard: false,
  };
  let html: string;
  try {
    html = md.render(content, env as unknown as Record<string, unknown>).trim();
  } catch {
    // markdown-it does not throw on text input; this is a last line of defence.
    html = `<p>${content.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`;
  }
  return {
    html,
    mentionedUserIds: [...env.mentionedUserIds],
    mentionedGroupIds: [...env.mentionedGroupIds],
    streamWildcard: env.streamWildcard,
    topicWildcard: env.topicWildcard,
  };
}

export function renderStreamDescription(text: string, ctx: MarkdownContext): string {
  return renderMarkdown(text, ctx).html;
}
