/**
 * Personal settings: each control saves itself with PATCH /settings, as in the reference app. The
 * values shown come from the live store, so a change made in another tab (a user_settings event)
 * shows here too; while a save is in flight the control shows the value being saved.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { errorText } from '../../api/errors';
import type { UserSettings } from '../../api/model';
import { ROLE } from '../../api/model/user';
import {
  useActiveUsers,
  useMutedUsers,
  useOwnUserId,
  useUser,
  useUserSetting,
  useUsersById,
} from '../../model/hooks';
import { useChangePassword, useMuteUser, useUpdateSettings } from '../../queries/settings';
import { COLOR_SCHEME } from './color-scheme';
import { OrganizationSettings } from './OrganizationSettings';

/** What StatusNote reads of a mutation: its own save, beside its own control. */
interface SaveState {
  status: 'idle' | 'pending' | 'success' | 'error';
  error: unknown;
}

function StatusNote({ save }: { save: SaveState }) {
  if (save.status === 'idle') return null;
  if (save.status === 'error')
    return (
      <span className="settings-status settings-status-error" role="alert">
        {errorText(save.error)}
      </span>
    );
  return (
    <span className="settings-status" role="status">
      {save.status === 'pending' ? 'Saving…' : 'Saved'}
    </span>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="settings-section" aria-labelledby={`settings-${title}`}>
      <h2 id={`settings-${title}`}>{title}</h2>
      {children}
    </section>
  );
}

/** Any on/off setting of the shared list can be a toggle; the list says which ones are. */
type BooleanSetting = {
  [K in keyof UserSettings]: UserSettings[K] extends boolean ? K : never;
}[keyof UserSettings];

function Toggle({ name, label, hint }: { name: BooleanSetting; label: string; hint?: string }) {
  const live = useUserSetting(name);
  const save = useUpdateSettings();
  // The value being saved shows until the user_settings event brings it into the store.
  const value = (save.isPending ? save.variables[name] : undefined) ?? live;
  if (value === undefined) return null; // a server without this setting
  return (
    <div className="settings-row">
      <label className="settings-toggle">
        <input
          type="checkbox"
          checked={value}
          disabled={save.isPending}
          onChange={(e) => save.mutate({ [name]: e.target.checked })}
        />
        <span>{label}</span>
      </label>
      {hint && <p className="settings-hint">{hint}</p>}
      <StatusNote save={save} />
    </div>
  );
}

function Choice<V extends string | number>({
  name,
  label,
  options,
}: {
  name: 'color_scheme' | 'web_home_view';
  label: string;
  options: readonly (readonly [V, string])[];
}) {
  const live = useUserSetting(name);
  const save = useUpdateSettings();
  const value = (save.isPending ? (save.variables[name] as V | undefined) : undefined) ?? live;
  const id = `setting-${name}`;
  return (
    <div className="settings-row">
      <label htmlFor={id}>{label}</label>
      <select
        className="text-input"
        id={id}
        value={String(value)}
        onChange={(e) => {
          const chosen = options.find(([v]) => String(v) === e.target.value)?.[0];
          if (chosen !== undefined) save.mutate({ [name]: chosen });
        }}
      >
        {options.map(([v, text]) => (
          <option key={String(v)} value={String(v)}>
            {text}
          </option>
        ))}
      </select>
      <StatusNote save={save} />
    </div>
  );
}

function NameForm() {
  const save = useUpdateSettings();
  const me = useUser(useOwnUserId());
  const [draft, setDraft] = useState<string | null>(null);
  const current = me?.full_name ?? '';
  const value = draft ?? current;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const name = value.trim();
    if (!name || name === current) return;
    save.mutate({ full_name: name }, { onSuccess: () => setDraft(null) });
  };
  return (
    <form className="settings-row settings-inline-form" onSubmit={submit}>
      <label htmlFor="setting-full-name">Name</label>
      <input
        className="text-input"
        id="setting-full-name"
        value={value}
        maxLength={60}
        onChange={(e) => setDraft(e.target.value)}
        autoComplete="name"
      />
      <button type="submit" className="button" disabled={!value.trim() || value.trim() === current}>
        Save name
      </button>
      <StatusNote save={save} />
    </form>
  );
}

function PasswordForm() {
  const change = useChangePassword();
  const [oldPassword, setOld] = useState('');
  const [newPassword, setNew] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate(
      { oldPassword, newPassword },
      {
        onSuccess: () => {
          setOld('');
          setNew('');
        },
      },
    );
  };
  return (
    <form className="settings-row settings-password" onSubmit={submit}>
      <label htmlFor="setting-old-password">Current password</label>
      <input
        className="text-input"
        id="setting-old-password"
        type="password"
        value={oldPassword}
        onChange={(e) => setOld(e.target.value)}
        autoComplete="current-password"
      />
      <label htmlFor="setting-new-password">New password</label>
      <input
        className="text-input"
        id="setting-new-password"
        type="password"
        value={newPassword}
        onChange={(e) => setNew(e.target.value)}
        autoComplete="new-password"
      />
      <button type="submit" className="button" disabled={!oldPassword || !newPassword}>
        Change password
      </button>
      <StatusNote save={change} />
    </form>
  );
}

function MutedUsers() {
  const mute = useMuteUser();
  const ownUserId = useOwnUserId();
  const muted = useMutedUsers();
  const users = useUsersById();
  const candidates = useActiveUsers().filter(
    (u) => u.user_id !== ownUserId && !(u.user_id in muted),
  );
  const [chosen, setChosen] = useState('');
  const run = (userId: number, muted: boolean) =>
    mute.mutate({ userId, muted }, { onSuccess: () => setChosen('') });
  const mutedIds = Object.keys(muted)
    .map(Number)
    .sort((a, b) => (users[a]?.full_name ?? '').localeCompare(users[b]?.full_name ?? ''));
  return (
    <>
      <p className="settings-hint settings-hint-block">
        Messages from people you mute are hidden and marked as read, and they leave your people
        list. They are not told.
      </p>
      {mutedIds.length > 0 && (
        <ul className="settings-list" aria-label="Muted users">
          {mutedIds.map((id) => (
            <li key={id}>
              <span>{users[id]?.full_name ?? 'Unknown user'}</span>
              <button type="button" className="button button-small" onClick={() => run(id, false)}>
                Unmute
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="settings-row settings-inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (chosen) run(Number(chosen), true);
        }}
      >
        <label htmlFor="setting-mute-user">Mute someone</label>
        <select
          id="setting-mute-user"
          className="text-input"
          value={chosen}
          onChange={(e) => setChosen(e.target.value)}
        >
          <option value="">Choose a person…</option>
          {candidates.map((u) => (
            <option key={u.user_id} value={u.user_id}>
              {u.full_name}
            </option>
          ))}
        </select>
        <button type="submit" className="button" disabled={!chosen}>
          Mute
        </button>
        <StatusNote save={mute} />
      </form>
    </>
  );
}

/** Asks the browser for permission to notify, and says where things stand. */
function BrowserPermission() {
  const supported = typeof Notification !== 'undefined';
  const [permission, setPermission] = useState(supported ? Notification.permission : 'denied');
  if (!supported)
    return (
      <p className="settings-hint settings-hint-block">This browser cannot show notifications.</p>
    );
  if (permission === 'granted')
    return (
      <p className="settings-hint settings-hint-block">This browser may show notifications.</p>
    );
  if (permission === 'denied')
    return (
      <p className="settings-hint settings-hint-block">
        This browser blocks notifications from Parley; allow them in its site settings.
      </p>
    );
  return (
    <div className="settings-row">
      <button
        type="button"
        className="button"
        onClick={() => void Notification.requestPermission().then(setPermission)}
      >
        Allow notifications in this browser
      </button>
    </div>
  );
}

const THEMES = [
  [COLOR_SCHEME.AUTOMATIC, 'Same as the system'],
  [COLOR_SCHEME.LIGHT, 'Light'],
  [COLOR_SCHEME.DARK, 'Dark'],
] as const;
const HOME_VIEWS = [
  ['inbox', 'Inbox'],
  ['recent_topics', 'Recent conversations'],
  ['all_messages', 'Combined feed'],
] as const;

export function SettingsView() {
  const ownRole = useUsersById()[useOwnUserId()]?.role ?? ROLE.MEMBER;
  const isAdmin = ownRole <= ROLE.ADMINISTRATOR;
  return (
    <div className="view-scroll">
      <div className="settings-view">
        <h1>Settings</h1>
        <Section title="Profile">
          <NameForm />
        </Section>
        <Section title="Preferences">
          <Choice name="color_scheme" label="Theme" options={THEMES} />
          <Choice name="web_home_view" label="Home view" options={HOME_VIEWS} />
          <Toggle name="twenty_four_hour_time" label="Show times in 24-hour format" />
          <Toggle
            name="enter_sends"
            label="Enter sends the message"
            hint="Otherwise Ctrl+Enter sends and Enter starts a new line."
          />
          <Toggle name="display_emoji_reaction_users" label="Show who reacted, not just how many" />
        </Section>
        <Section title="Notifications">
          <Toggle
            name="enable_desktop_notifications"
            label="Desktop notifications for direct messages and mentions"
            hint="Shown while Parley is not in front; muted conversations and people stay quiet."
          />
          <Toggle
            name="pm_content_in_desktop_notifications"
            label="Show direct messages' text in notifications"
          />
          <BrowserPermission />
        </Section>
        <Section title="Privacy">
          <Toggle
            name="send_private_typing_notifications"
            label="Let others see when I'm typing a direct message"
          />
          <Toggle
            name="send_stream_typing_notifications"
            label="Let others see when I'm typing in a channel"
          />
          <Toggle name="send_read_receipts" label="Let others see when I've read their messages" />
          <Toggle
            name="enable_drafts_synchronization"
            label="Keep my drafts on the server"
            hint="Turning this off deletes the drafts stored on the server."
          />
        </Section>
        <Section title="Muted users">
          <MutedUsers />
        </Section>
        <Section title="Password">
          <PasswordForm />
        </Section>
        {isAdmin && <OrganizationSettings />}
      </div>
    </div>
  );
}
