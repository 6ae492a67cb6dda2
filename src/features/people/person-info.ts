/**
 * What a profile shows about a person, as plain functions: their role, the address others may
 * see, their local time, how recently they were active, and a custom field's value by type.
 */
import type { CustomProfileField, ProfileValue, User } from '../../api/model';
import { ROLE } from '../../api/model/user';
import { currentLocale, i18n } from '../../i18n';
import type { PresenceStatus } from '../../model/presence';
import { fieldChoices } from '../../model/profile-fields';

export type RoleKey = 'owner' | 'admin' | 'moderator' | 'member' | 'guest' | 'bot';

export function roleKey(user: User): RoleKey {
  if (user.is_bot) return 'bot';
  switch (user.role) {
    case ROLE.OWNER:
      return 'owner';
    case ROLE.ADMINISTRATOR:
      return 'admin';
    case ROLE.MODERATOR:
      return 'moderator';
    case ROLE.GUEST:
      return 'guest';
    default:
      return 'member';
  }
}

/**
 * The real address when the viewer may see it; else the API address unless it is the server's
 * made-up one (`user123@host`), which reaches nobody.
 */
export function visibleEmail(user: User): string | null {
  if (user.delivery_email) return user.delivery_email;
  return /^user\d+@/i.test(user.email) ? null : user.email;
}

/** "Tue 14:05" in the person's time zone and the reader's language; null without a zone. */
export function localTime(timezone: string, now: Date, hour12?: boolean): string | null {
  if (!timezone) return null;
  try {
    return new Intl.DateTimeFormat(currentLocale(), {
      timeZone: timezone,
      weekday: 'short',
      hour: 'numeric',
      minute: '2-digit',
      hour12,
    }).format(now);
  } catch {
    return null;
  }
}

/** "Active now", "Idle", "Active 5 minutes ago", "Not active yet". */
export function activityText(
  status: PresenceStatus,
  lastActiveSeconds: number,
  nowSeconds: number,
): string {
  if (status === 'active') return i18n.t('people:presence.activeNow');
  if (status === 'idle') return i18n.t('people:presence.idle');
  if (!lastActiveSeconds) return i18n.t('people:presence.never');
  const ago = Math.max(0, nowSeconds - lastActiveSeconds);
  const format = new Intl.RelativeTimeFormat(currentLocale(), { numeric: 'auto' });
  const [value, unit]: [number, Intl.RelativeTimeFormatUnit] =
    ago < 3600
      ? [Math.max(1, Math.round(ago / 60)), 'minute']
      : ago < 86400
        ? [Math.round(ago / 3600), 'hour']
        : [Math.round(ago / 86400), 'day'];
  return i18n.t('people:presence.lastActive', { when: format.format(-value, unit) });
}

/** Only web links are links: anything else (javascript:, data:) stays text. */
export function safeHttpUrl(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

const EXTERNAL_PATTERNS: Record<string, string> = {
  github: 'https://github.com/%(username)s',
  twitter: 'https://twitter.com/%(username)s',
};

/** An external account's profile page, from the field's `url_pattern` (or its subtype's). */
export function externalAccountUrl(field: CustomProfileField, username: string): string | null {
  let pattern: string | undefined;
  try {
    const data = JSON.parse(field.field_data || '{}') as { subtype?: string; url_pattern?: string };
    pattern = data.url_pattern || EXTERNAL_PATTERNS[data.subtype ?? ''];
  } catch {
    return null;
  }
  if (!pattern || !pattern.includes('%(username)s')) return null;
  return safeHttpUrl(pattern.replace('%(username)s', encodeURIComponent(username)));
}

/** A custom field's value, ready to show by its type. */
export type FieldDisplay =
  | { kind: 'text'; text: string }
  | { kind: 'html'; html: string }
  | { kind: 'link'; href: string; text: string }
  | { kind: 'people'; userIds: number[] };

export function fieldDisplay(field: CustomProfileField, value: ProfileValue): FieldDisplay | null {
  const raw = value.value;
  if (raw === '') return null;
  switch (field.type) {
    case 1:
    case 2:
      return value.rendered_value
        ? { kind: 'html', html: value.rendered_value }
        : { kind: 'text', text: raw };
    case 3: {
      const choice = fieldChoices(field).find((c) => c.key === raw);
      return { kind: 'text', text: choice?.text ?? raw };
    }
    case 4: {
      const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
      if (!date) return { kind: 'text', text: raw };
      const utc = new Date(Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3])));
      return {
        kind: 'text',
        text: utc.toLocaleDateString(currentLocale(), { dateStyle: 'long', timeZone: 'UTC' }),
      };
    }
    case 5: {
      const href = safeHttpUrl(raw);
      return href ? { kind: 'link', href, text: raw } : { kind: 'text', text: raw };
    }
    case 6: {
      try {
        const ids = JSON.parse(raw) as unknown;
        if (Array.isArray(ids) && ids.every((id) => Number.isInteger(id)))
          return { kind: 'people', userIds: ids as number[] };
      } catch {
        // not a list of people: shown as it is
      }
      return { kind: 'text', text: raw };
    }
    case 7: {
      const href = externalAccountUrl(field, raw);
      return href ? { kind: 'link', href, text: raw } : { kind: 'text', text: raw };
    }
    default:
      return { kind: 'text', text: raw };
  }
}
