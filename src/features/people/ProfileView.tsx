/** A person's full profile at /user/<id>: everything on the card, every custom field, groups. */
import { useTranslation } from 'react-i18next';
import { Link } from '../../components/Link';
import type { User } from '../../api/model';
import { EmptyState } from '../../components/StatePanel';
import { currentLocale } from '../../i18n';
import {
  useGroupsOfUser,
  useOwnUserId,
  useProfileFields,
  useUser,
  useUsersById,
} from '../../model/hooks';
import { dmNarrow, narrowToUrl } from '../../narrow';
import { sentByUrl } from './ProfileCard';
import { FieldList, PersonFacts, PersonHeader } from './PersonDetails';
import { PersonTrigger } from './PersonTrigger';

export function ProfileView({ userId }: { userId: number }) {
  const { t } = useTranslation('people');
  const user = useUser(userId);
  if (!user)
    return (
      <section className="view-page" aria-label={t('profile.notFoundTitle')}>
        <EmptyState title={t('profile.notFoundTitle')}>{t('profile.notFound')}</EmptyState>
      </section>
    );
  return <Profile user={user} />;
}

function Profile({ user }: { user: User }) {
  const { t } = useTranslation('people');
  const ownUserId = useOwnUserId();
  const fields = useProfileFields();
  const groups = useGroupsOfUser(user.user_id);
  const users = useUsersById();
  const owner = user.bot_owner_id ? users[user.bot_owner_id] : undefined;
  return (
    <section className="view-page" aria-labelledby="profile-title">
      <div className="view-scroll">
        <div className="profile-page">
          <PersonHeader user={user} headingId="profile-title" avatarSize={96} level={1} />
          <div className="profile-card-actions">
            {user.user_id !== ownUserId && (
              <Link className="button" to={narrowToUrl(dmNarrow([user.user_id], ownUserId))}>
                {t('card.sendDm')}
              </Link>
            )}
            <Link className="button" to={sentByUrl(user.user_id)}>
              {t('card.viewSent')}
            </Link>
            {user.user_id === ownUserId && (
              <Link className="button" to="/settings/profile">
                {t('profile.edit')}
              </Link>
            )}
          </div>
          <section className="profile-block" aria-labelledby="profile-about">
            <h2 id="profile-about">{t('profile.about')}</h2>
            <PersonFacts user={user} />
            {owner && (
              <dl className="person-facts">
                <div>
                  <dt>{t('profile.botOwner')}</dt>
                  <dd>
                    <PersonTrigger userId={owner.user_id} className="person-link">
                      {owner.full_name}
                    </PersonTrigger>
                  </dd>
                </div>
              </dl>
            )}
            <p className="person-joined">
              {t('profile.joined', {
                date: new Date(user.date_joined).toLocaleDateString(currentLocale(), {
                  dateStyle: 'long',
                }),
              })}
            </p>
          </section>
          {!user.is_bot && fields.length > 0 && (
            <section className="profile-block" aria-labelledby="profile-fields">
              <h2 id="profile-fields">{t('profile.fields')}</h2>
              <FieldList fields={fields} user={user} />
              {!fields.some((f) => user.profile_data?.[String(f.id)]?.value) && (
                <p className="person-empty">{t('profile.noFields')}</p>
              )}
            </section>
          )}
          <section className="profile-block" aria-labelledby="profile-groups">
            <h2 id="profile-groups">{t('profile.groups')}</h2>
            {groups.length ? (
              <ul className="profile-groups">
                {groups.map((group) => (
                  <li key={group.id}>{group.name}</li>
                ))}
              </ul>
            ) : (
              <p className="person-empty">{t('profile.noGroups')}</p>
            )}
          </section>
        </div>
      </div>
    </section>
  );
}
