/** Wire types for streams and subscriptions. */

export interface Stream {
  stream_id: number;
  name: string;
  description: string;
  rendered_description: string;
  date_created: number;
  invite_only: boolean;
  is_web_public: boolean;
  /** 1 anyone, 2 administrators, 3 full members, 4 moderators */
  stream_post_policy: number;
  is_announcement_only: boolean;
  message_retention_days: number | null;
  history_public_to_subscribers: boolean;
  first_message_id: number | null;
  can_remove_subscribers_group: number;
  stream_weekly_traffic: number | null;
  is_default?: boolean;
  is_archived?: boolean;
  creator_id?: number | null;
}

/** A stream as its subscriber sees it: the stream plus per-user settings. */
export interface Subscription extends Stream {
  color: string;
  is_muted: boolean;
  in_home_view: boolean;
  pin_to_top: boolean;
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  push_notifications: boolean | null;
  email_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
  /** deprecated; always empty */
  email_address?: string;
  subscribers?: number[];
}

export type SubscriptionProperty =
  | 'color'
  | 'is_muted'
  | 'in_home_view'
  | 'pin_to_top'
  | 'desktop_notifications'
  | 'audible_notifications'
  | 'push_notifications'
  | 'email_notifications'
  | 'wildcard_mentions_notify';
