/**
 * Wire types for organization-wide collections the register snapshot carries beside the realm
 * settings: linkifiers, default streams and their groups, custom profile field definitions,
 * custom emoji.
 */
import type { Stream } from './stream';

export interface Linkifier {
  id: number;
  pattern: string;
  /** RFC 6570 template (client capability linkifier_url_template) */
  url_template: string;
}

/** The legacy linkifier form: [pattern, url format string, id]. */
export type LegacyRealmFilter = [string, string, number];

export interface DefaultStreamGroup {
  id: number;
  name: string;
  description: string;
  streams: Stream[];
}

/** 1 short text, 2 long text, 3 choice, 4 date, 5 link, 6 users, 7 external account, 8 pronouns */
export type CustomProfileFieldType = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

export interface CustomProfileField {
  id: number;
  type: CustomProfileFieldType;
  order: number;
  name: string;
  hint: string;
  /** JSON text: the choices (type 3) or the external account kind (type 7); else empty */
  field_data: string;
  display_in_profile_summary?: boolean;
  required?: boolean;
  editable_by_user?: boolean;
}

/** A custom emoji; deactivated ones stay listed, since old messages and reactions show them. */
export interface RealmEmoji {
  /** a string of digits, as reactions name it in `emoji_code` */
  id: string;
  name: string;
  source_url: string;
  /** a still image for animated ones */
  still_url?: string | null;
  deactivated: boolean;
  author_id?: number | null;
}
