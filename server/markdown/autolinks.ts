import type { MarkdownIt, StateCore, Token } from 'markdown-it';
import { isSafeUrl } from './links.js';
import { renderEnv, type RenderEnv } from './types.js';

/**
 * Bare URLs, domains and e-mail addresses become links as the reference server finds them (its
 * `get_web_link_regex`): a link starts at the beginning of a text, after whitespace or after one
 * of '"(,:< ; it is `http(s)://host`, or a name under a known top-level domain, with an optional
 * path holding up to six levels of balanced parentheses; or an e-mail address. It must be followed
 * by nothing but punctuation up to whitespace or the end. URLs hold no whitespace, so each word
 * is matched on its own, which bounds every match by the length of one word.
 */

/** Country codes, without md and py (file extensions far more often than Moldova or Paraguay). */
const COUNTRY_CODES =
  'ac ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bm bn bo br bs bt bw by bz ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg er es et eu fi fj fk fm fo fr ga gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht hu id ie il im in io iq ir is it je jm jo jp ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls lt lu lv ly ma mc me mg mh mk ml mm mn mo mp mq mr ms mt mu mv mw mx my mz na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw qa re ro rs ru rw sa sb sc sd se sg sh si sk sl sm sn so sr ss st su sv sx sy sz tc td tf tg th tj tk tl tm tn to tr tt tv tw tz ua ug uk us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw';
/** Generic top-level domains people write in chat (without java, mov and zip, as upstream). */
const GENERIC =
  'com org net edu gov mil int info biz name pro aero coop museum mobi asia tel travel jobs cat app dev xyz online site tech store blog cloud page link live news shop top club space website email solutions agency digital design media network world life today guru zone chat social team group ltd inc llc company global systems software academy center studio art wiki fun games video music photo photos help support services tools work works codes host hosting server systems run build engineering science energy finance money bank law legal health care care community foundation institute school university education events ninja rocks wtf lol sh';
const TLDS = [...new Set(`${COUNTRY_CODES} ${GENERIC}`.split(' '))].sort(
  (a, b) => b.length - a.length,
);

function pathPattern(): string {
  const inner = '[^\\s()"]*';
  const group = '[^\\s()"]*?(?:\\(%s\\)[^\\s()"]*?)*';
  let chunk = group;
  for (let i = 0; i < 6; i++) chunk = chunk.replace('%s', group);
  return chunk.replace('%s', inner);
}

const URL_BODY =
  `(?:(?:https?://[\\w.:@-]+?|(?:[\\w-]+\\.)+(?:${TLDS.join('|')}))(?:/${pathPattern()})?` +
  `|[\\w.-]+@[\\w.-]+\\.\\w+)`;
/** One link from the start of a word's tail, then only punctuation to the word's end. */
const LINK = new RegExp(`^(${URL_BODY})[!:;?),.'">]*$`, 'u');
const STARTS_AFTER = /['"(,:<]/;
/** Longer words are not searched for links. */
const MAX_WORD = 1000;

interface Found {
  start: number;
  end: number;
  url: string;
}

/** The links in a text, whose first character follows `before` (a space at the start of a block). */
export function findWebLinks(text: string, before: string): Found[] {
  const found: Found[] = [];
  for (const word of text.matchAll(/\S+/g)) {
    const w = word[0];
    if (w.length > MAX_WORD || !/[.@]|:\/\//.test(w)) continue;
    for (let i = 0; i < w.length; i++) {
      const prev = i === 0 ? (word.index === 0 ? before : ' ') : w[i - 1]!;
      if (i > 0 && !STARTS_AFTER.test(prev)) continue;
      if (i === 0 && !/\s/.test(prev) && !STARTS_AFTER.test(prev)) continue;
      const m = LINK.exec(w.slice(i));
      if (!m) continue;
      found.push({ start: word.index + i, end: word.index + i + m[1]!.length, url: m[1]! });
      break;
    }
  }
  return found;
}

/** The href of a link the reference would make of `url`: a scheme added, its own site made relative. */
export function linkHref(url: string, env: RenderEnv | null): string {
  let href = url;
  if (!/^[a-z][a-z0-9+.-]*:/i.test(href) && !/^[/#]/.test(href))
    href = href.includes('@') ? `mailto:${href}` : `http://${href}`;
  return relativeToRealm(href, env);
}

/**
 * Links into the organization as relative links, as the reference makes them: `https://our.host/#narrow/…`
 * becomes `#narrow/…`, and `…/user_uploads/…` becomes `/user_uploads/…` (the reference writes it
 * without the leading slash; with it, it is a path every client and isSafeUrl read the same way).
 */
export function relativeToRealm(href: string, env: RenderEnv | null): string {
  const realm = env?.ctx.realmUrl?.replace(/\/+$/, '');
  if (!realm) return href;
  const prefix = `${realm}/`;
  if (href.startsWith(`${prefix}#`)) return href.slice(prefix.length);
  if (href.startsWith(`${prefix}user_uploads/`)) return href.slice(prefix.length - 1);
  return href;
}

/** What precedes a text token: the last character of the text before it, or of no text. */
function charBefore(children: Token[], index: number): string {
  const prev = children[index - 1];
  if (!prev) return ' ';
  if (prev.type === 'text') return prev.content.slice(-1) || ' ';
  if (prev.type === 'softbreak' || prev.type === 'hardbreak') return '\n';
  // emphasis and other markup: the reference sees its `*` or `~`
  return '*';
}

function autolink(state: StateCore): void {
  const env = renderEnv(state.env);
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const children = block.children;
    const out: Token[] = [];
    let inLink = 0;
    for (const [i, child] of children.entries()) {
      if (child.type === 'link_open') inLink++;
      else if (child.type === 'link_close') inLink--;
      if (child.type !== 'text' || inLink > 0) {
        out.push(child);
        continue;
      }
      const text = child.content;
      const found = findWebLinks(text, charBefore(children, i)).filter((f) =>
        isSafeUrl(linkHref(f.url, env)),
      );
      if (!found.length) {
        out.push(child);
        continue;
      }
      let pos = 0;
      const pushText = (content: string) => {
        const t = new state.Token('text', '', 0);
        t.content = content;
        out.push(t);
      };
      for (const f of found) {
        if (f.start > pos) pushText(text.slice(pos, f.start));
        const open = new state.Token('link_open', 'a', 1);
        open.attrs = [['href', linkHref(f.url, env)]];
        open.markup = 'linkify';
        out.push(open);
        pushText(f.url);
        out.push(new state.Token('link_close', 'a', -1));
        pos = f.end;
      }
      if (pos < text.length) pushText(text.slice(pos));
    }
    block.children = out;
  }
}

/**
 * Markdown links as the reference makes them: a scheme-less destination gets `http://` (or
 * `mailto:`), links into the organization become relative, and a link without text shows its URL.
 */
function zulipLinks(state: StateCore): void {
  const env = renderEnv(state.env);
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const children = block.children;
    for (let i = 0; i < children.length; i++) {
      const open = children[i]!;
      if (open.type !== 'link_open' || open.markup === 'linkify') continue;
      const original = String(open.attrGet('href') ?? '');
      const relative = relativeToRealm(original, env);
      const href = isSafeUrl(relative) ? relative : original;
      open.attrSet('href', href);
      const next = children[i + 1];
      const empty =
        next?.type === 'link_close' ||
        (next?.type === 'text' && !next.content.trim() && children[i + 2]?.type === 'link_close');
      if (!empty) continue;
      const text = new state.Token('text', '', 0);
      text.content = href;
      if (next?.type === 'link_close') children.splice(i + 1, 0, text);
      else children[i + 1] = text;
    }
  }
}

export function autolinksPlugin(md: MarkdownIt): void {
  md.disable(['autolink', 'linkify']);
  const normalize = md.normalizeLink.bind(md);
  md.normalizeLink = (url) => {
    const u = url.trim();
    const withScheme =
      u && !/^[a-z][a-z0-9+.-]*:/i.test(u) && !/^[/#]/.test(u)
        ? u.includes('@')
          ? `mailto:${u}`
          : `http://${u}`
        : u;
    return normalize(withScheme);
  };
  md.core.ruler.after('inline', 'zulip_links', zulipLinks);
  md.core.ruler.after('zulip_links', 'zulip_autolinks', autolink);
}
