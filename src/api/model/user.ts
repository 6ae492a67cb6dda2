/** Wire types for users. */

export type Role = 100 | 200 | 300 | 400 | 600;

/** The API's role values; a smaller number is a more powerful role. */
export const ROLE = {
  OWNER: 100,
  ADMINISTRATOR: 200,
  MODERATOR: 300,
  MEMBER: 400,
  GUEST: 600,
} as const;

export interface ProfileValue {
  value: string;
  /** for the text field types: the value rendered as Markdown */
  rendered_value?: string;
}

export interface User {
  user_id: number;
  email: string;
  delivery_email: string | null;
  full_name: string;
  date_joined: string;
  is_active: boolean;
  is_owner: boolean;
  is_admin: boolean;
  is_guest: boolean;
  is_billing_admin: boolean;
  is_bot: boolean;
  role: Role;
  timezone: string;
  /** may be absent with the user_avatar_url_field_optional capability */
  avatar_url?: string | null;
  avatar_version: number;
  bot_type?: number | null;
  bot_owner_id?: number | null;
  /** custom profile field values by field id (humans only) */
  profile_data?: Record<string, ProfileValue>;
}

/** GET /users/me */
export interface OwnUser extends User {
  max_message_id?: number;
}

/** A status as the register snapshot gives it: only the parts that are set. */
export interface UserStatus {
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji' | '';
}

/** A change of status (POST /users/me/status and its event): empty strings clear a part. */
export type UserStatusChange = UserStatus;
