export interface MentionableUser {
  id: number;
  full_name: string;
  is_active?: boolean;
}

export interface MarkdownStream {
  id: number;
  name: string;
}

export interface MarkdownUserGroup {
  id: number;
  name: string;
}

export interface MarkdownLinkifier {
  id: number;
  /**
   * a pattern in RE2's syntax, as the reference server stores it: named groups (?P<name>...),
   * flags inline ((?i)); run by a linear-time engine, never by JavaScript's RegExp
   */
  pattern: string;
  /** an RFC 6570 URL template such as https://github.com/zulip/zulip/issues/{id} */
  url_template: string;
}

/** An active custom emoji: `:name:` renders as its image. */
export interface MarkdownRealmEmoji {
  id: string;
  name: string;
  source_url: string;
}

export interface MarkdownContext {
  /** all users of the organization that may be mentioned (lookups are case-insensitive on full_name) */
  users: readonly MentionableUser[];
  /** streams the sender can link to */
  streams: readonly MarkdownStream[];
  /** user groups that can be mentioned */
  userGroups?: readonly MarkdownUserGroup[];
  /** the organization's linkifiers, applied in order (earlier ones win overlaps) */
  linkifiers?: readonly MarkdownLinkifier[];
  /** the organization's active custom emoji (they win over Unicode emoji of the same name) */
  realmEmoji?: readonly MarkdownRealmEmoji[];
  /**
   * the organization's own address (`https://chat.example.com`): links into it that point at a
   * narrow of the app (`https://chat.example.com/#narrow/...`) become `#narrow/...`, as upstream
   */
  realmUrl?: string;
  /** the sender's `translate_emoticons` setting: `:)` and friends become emoji */
  translateEmoticons?: boolean;
}

export interface RenderResult {
  html: string;
  /** users mentioned with @**Name** (silent mentions excluded) */
  mentionedUserIds: number[];
  /** groups mentioned with @*group* (silent mentions excluded) */
  mentionedGroupIds: number[];
  /** @**all**, @**everyone**, @**stream** or @**channel** (not silent) */
  streamWildcard: boolean;
  /** @**topic** (not silent) */
  topicWildcard: boolean;
}

/** Name indexes (lower-cased name -> entries), built lazily during a render when worthwhile. */
export interface Lookups {
  users?: Map<string, MentionableUser[]>;
  groups?: Map<string, MarkdownUserGroup[]>;
  streams?: Map<string, MarkdownStream[]>;
  realmEmoji?: Map<string, MarkdownRealmEmoji>;
  /** how many lookups scanned a list instead of using an index */
  scans?: number;
}

/** The markdown-it `env` of one render; nested renders (```quote, ```spoiler) share it. */
export interface RenderEnv {
  ctx: MarkdownContext;
  mentionedUserIds: Set<number>;
  mentionedGroupIds: Set<number>;
  streamWildcard: boolean;
  topicWildcard: boolean;
  /** how many fenced blocks deep the current nested render is */
  depth: number;
  /** how many ```quote blocks the current nested render is in (no image previews in quotes) */
  quoteDepth?: number;
  lookups: Lookups;
  /** finished HTML of fenced blocks, found again by placeholders in the text (fences.ts) */
  stash?: string[];
  /** the number each numbered list item had as typed, by line (lists.ts) */
  listStarts?: Map<number, number>;
  /** the render's time budget (budget.ts): milliseconds of processor time, and when it started */
  budget: { ms: number; deadline: number; cpuAtStart: NodeJS.CpuUsage };
}

/** The env of a markdown-it state, or null when rendering without our context. */
export function renderEnv(env: unknown): RenderEnv | null {
  const e = env as Partial<RenderEnv> | null | undefined;
  return e && typeof e === 'object' && e.ctx ? (e as RenderEnv) : null;
}
