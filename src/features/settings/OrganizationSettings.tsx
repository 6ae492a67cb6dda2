/**
 * What administrators manage from the settings page: invitation links for new people, and who
 * is active. Changes arrive back as realm_user events, so the lists stay current everywhere.
 */
import { useMemo, useState } from 'react';
import { errorText } from '../../api/errors';
import { ROLE } from '../../api/model/user';
import { Avatar } from '../../components/Avatar';
import { useOwnUserId, useUsersById } from '../../model/hooks';
import { useCreateInviteLink, useDeactivateUser, useReactivateUser } from '../../queries/admin';

export const ROLE_NAMES: Record<number, string> = {
  [ROLE.OWNER]: 'Owner',
  [ROLE.ADMINISTRATOR]: 'Administrator',
  [ROLE.MODERATOR]: 'Moderator',
  [ROLE.MEMBER]: 'Member',
  [ROLE.GUEST]: 'Guest',
};

const LINK_ROLES = [ROLE.MEMBER, ROLE.MODERATOR, ROLE.GUEST, ROLE.ADMINISTRATOR] as const;
const EXPIRY = [
  [60 * 24, 'a day'],
  [60 * 24 * 7, 'a week'],
  [60 * 24 * 30, 'thirty days'],
  [null, 'never'],
] as const;

function InviteLink() {
  const createLink = useCreateInviteLink();
  const ownRole = useUsersById()[useOwnUserId()]?.role ?? ROLE.MEMBER;
  const [role, setRole] = useState<number>(ROLE.MEMBER);
  const [expiry, setExpiry] = useState<number | null>(60 * 24 * 7);
  // Kept apart from the mutation's data so the last link stays on screen while a new one is made.
  const [link, setLink] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const create = () => {
    setCopied(false);
    createLink.mutate(
      { role, expiresInMinutes: expiry },
      { onSuccess: ({ invite_link }) => setLink(invite_link) },
    );
  };
  return (
    <div className="settings-invite">
      <div className="settings-row">
        <label htmlFor="invite-role">Join as</label>
        <select
          id="invite-role"
          className="text-input"
          value={role}
          onChange={(e) => setRole(Number(e.target.value))}
        >
          {/* Only owners may invite administrators. */}
          {LINK_ROLES.filter((r) => r !== ROLE.ADMINISTRATOR || ownRole === ROLE.OWNER).map((r) => (
            <option key={r} value={r}>
              {ROLE_NAMES[r]}
            </option>
          ))}
        </select>
      </div>
      <div className="settings-row">
        <label htmlFor="invite-expiry">Link expires in</label>
        <select
          id="invite-expiry"
          className="text-input"
          value={String(expiry)}
          onChange={(e) => setExpiry(e.target.value === 'null' ? null : Number(e.target.value))}
        >
          {EXPIRY.map(([minutes, text]) => (
            <option key={String(minutes)} value={String(minutes)}>
              {text}
            </option>
          ))}
        </select>
        <button type="button" className="button" onClick={create}>
          Create an invitation link
        </button>
      </div>
      {link && (
        <div className="settings-row">
          <label htmlFor="invite-link">Invitation link</label>
          <input
            id="invite-link"
            className="text-input"
            readOnly
            value={link}
            onFocus={(e) => e.target.select()}
          />
          <button
            type="button"
            className="button button-small"
            onClick={() => void navigator.clipboard?.writeText(link).then(() => setCopied(true))}
          >
            {copied ? 'Copied' : 'Copy'}
          </button>
        </div>
      )}
      {createLink.isError && (
        <p className="settings-status settings-status-error" role="alert">
          {errorText(createLink.error)}
        </p>
      )}
    </div>
  );
}

function People() {
  const deactivate = useDeactivateUser();
  const reactivate = useReactivateUser();
  const ownUserId = useOwnUserId();
  const users = useUsersById();
  const ownRole = users[ownUserId]?.role ?? ROLE.MEMBER;
  const people = useMemo(
    () =>
      Object.values(users)
        .filter((u) => !u.is_bot)
        .sort(
          (a, b) =>
            Number(b.is_active) - Number(a.is_active) || a.full_name.localeCompare(b.full_name),
        ),
    [users],
  );
  // One error line for the list: starting either action clears what the other one said.
  const setActive = (userId: number, active: boolean) => {
    (active ? deactivate : reactivate).reset();
    (active ? reactivate : deactivate).mutate(userId);
  };
  const failed = deactivate.isError ? deactivate : reactivate.isError ? reactivate : null;
  return (
    <>
      {failed && (
        <p className="settings-status settings-status-error" role="alert">
          {errorText(failed.error)}
        </p>
      )}
      <ul className="settings-list settings-people" aria-label="People in the organization">
        {people.map((u) => (
          <li key={u.user_id} className={u.is_active ? undefined : 'settings-person-inactive'}>
            <span className="settings-person">
              <Avatar url={u.avatar_url} name={u.full_name} size={24} />
              <span>
                {u.full_name}
                <span className="settings-person-detail">
                  {' '}
                  {ROLE_NAMES[u.role] ?? 'Member'}
                  {u.is_active ? '' : ', deactivated'}
                </span>
              </span>
            </span>
            {/* Only owners may deactivate owners; nobody deactivates themself from here. */}
            {u.user_id !== ownUserId &&
              (u.role !== ROLE.OWNER || ownRole === ROLE.OWNER) &&
              (u.is_active ? (
                <button
                  type="button"
                  className="button button-small"
                  aria-label={`Deactivate ${u.full_name}`}
                  onClick={() => setActive(u.user_id, false)}
                >
                  Deactivate
                </button>
              ) : (
                <button
                  type="button"
                  className="button button-small"
                  aria-label={`Reactivate ${u.full_name}`}
                  onClick={() => setActive(u.user_id, true)}
                >
                  Reactivate
                </button>
              ))}
          </li>
        ))}
      </ul>
    </>
  );
}

export function OrganizationSettings() {
  return (
    <>
      <section className="settings-section" aria-labelledby="settings-invite">
        <h2 id="settings-invite">Invite people</h2>
        <p className="settings-hint settings-hint-block">
          Anyone with the link can create an account until it expires. They join the default
          channels.
        </p>
        <InviteLink />
      </section>
      <section className="settings-section" aria-labelledby="settings-people">
        <h2 id="settings-people">People</h2>
        <People />
      </section>
    </>
  );
}
