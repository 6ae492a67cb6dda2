/** The parts of a person that the card and the full profile both show. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CustomProfileField, User } from '../../api/model';
import { Avatar } from '../../components/Avatar';
import {
  useLastActive,
  usePresenceStatuses,
  useUserSetting,
  useUserStatus,
  useUsersById,
} from '../../model/hooks';
import { sanitizeHtml } from '../message-list/sanitize';
import { PersonTrigger } from './PersonTrigger';
import { activityText, fieldDisplay, localTime, roleKey, visibleEmail } from './person-info';
import { StatusLine } from './StatusBadge';

/** The current time, refreshed every half minute (local times and "active … ago"). */
export function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function PersonHeader({
  user,
  headingId,
  avatarSize,
  level = 2,
}: {
  user: User;
  headingId: string;
  avatarSize: number;
  level?: 1 | 2;
}) {
  const { t } = useTranslation('people');
  const status = useUserStatus(user.user_id);
  const presence = usePresenceStatuses()(user.user_id);
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <div className="person-header">
      <span className="presence-avatar">
        <Avatar url={user.avatar_url} name={user.full_name} size={avatarSize} />
        {!user.is_bot && (
          <span
            className={`presence-dot presence-${status.away ? 'offline' : presence}`}
            aria-hidden="true"
          />
        )}
      </span>
      <div className="person-header-text">
        <Heading id={headingId} className="person-name">
          {user.full_name}
        </Heading>
        <p className="person-role">
          {t(`role.${roleKey(user)}`)}
          {!user.is_active && <> · {t('deactivated')}</>}
        </p>
        <StatusLine status={status} />
      </div>
    </div>
  );
}

/** Address, local time and activity, as a description list. */
export function PersonFacts({ user }: { user: User }) {
  const { t } = useTranslation('people');
  const now = useNow();
  const twentyFour = useUserSetting('twenty_four_hour_time');
  const presence = usePresenceStatuses()(user.user_id);
  const lastActive = useLastActive(user.user_id);
  const away = useUserStatus(user.user_id).away;
  const email = visibleEmail(user);
  const time = user.is_bot ? null : localTime(user.timezone, now, !twentyFour);
  return (
    <dl className="person-facts">
      {email && (
        <div>
          <dt>{t('facts.email')}</dt>
          <dd>
            <a href={`mailto:${email}`}>{email}</a>
          </dd>
        </div>
      )}
      {time && (
        <div>
          <dt>{t('facts.localTime')}</dt>
          <dd>{time}</dd>
        </div>
      )}
      {!user.is_bot && (
        <div>
          <dt>{t('facts.activity')}</dt>
          <dd>
            {away
              ? t('presence.away')
              : activityText(presence, lastActive, Math.floor(now.getTime() / 1000))}
          </dd>
        </div>
      )}
    </dl>
  );
}

/** One custom field's value, rendered by its type. */
export function FieldValue({ field, user }: { field: CustomProfileField; user: User }) {
  const users = useUsersById();
  const value = user.profile_data?.[String(field.id)];
  const shown = value && fieldDisplay(field, value);
  if (!shown) return null;
  switch (shown.kind) {
    case 'text':
      return <>{shown.text}</>;
    case 'html':
      return (
        <div
          className="rendered-markdown"
          dangerouslySetInnerHTML={{ __html: sanitizeHtml(shown.html) }}
        />
      );
    case 'link':
      return (
        <a href={shown.href} target="_blank" rel="noopener noreferrer">
          {shown.text}
        </a>
      );
    case 'people':
      return (
        <ul className="person-field-people">
          {shown.userIds.map((id) => (
            <li key={id}>
              <PersonTrigger userId={id} className="person-link">
                {users[id]?.full_name ?? String(id)}
              </PersonTrigger>
            </li>
          ))}
        </ul>
      );
  }
}

/** The fields that have a value, each with its name. */
export function FieldList({ fields, user }: { fields: readonly CustomProfileField[]; user: User }) {
  const filled = fields.filter((field) => {
    const value = user.profile_data?.[String(field.id)];
    return value && fieldDisplay(field, value);
  });
  if (!filled.length) return null;
  return (
    <dl className="person-fields">
      {filled.map((field) => (
        <div key={field.id}>
          <dt>{field.name}</dt>
          <dd>
            <FieldValue field={field} user={user} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
