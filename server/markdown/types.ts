export interface MentionableUser {
  id: number;
  full_name: string;
  is_active?: boolean;
}

export interface MarkdownContext {
  /** users of the organization that may be mentioned (names match case-insensitively) */
  users: readonly MentionableUser[];
  /** streams the sender can link to */
  streams: readonly { id: number; name: string }[];
  userGroups?: readonly { id: number; name: string }[];
  /** JavaScript regex sources with named groups (plus flags), and RFC 6570 URL templates */
  linkifiers?: readonly { id: number; pattern: string; flags?: string; url_template: string }[];
}

export interface RenderResult {
  html: string;
  mentionedUserIds: number[];
  mentionedGroupIds: number[];
  streamWildcard: boolean;
  topicWildcard: boolean;
}
