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
  /** regex sources with named groups, and RFC 6570 level 1/2 URL templates */
  linkifiers?: readonly { id: number; pattern: string; url_template: string }[];
}

export interface RenderResult {
  html: string;
  mentionedUserIds: number[];
  mentionedGroupIds: number[];
  streamWildcard: boolean;
  topicWildcard: boolean;
}
