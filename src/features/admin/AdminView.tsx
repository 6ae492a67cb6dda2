/**
 * The organization's administration, `/organization/<section>`. Each section says who may open
 * it; the server decides what each request may do, and a section shows only what its reader may
 * change.
 */
import { useTranslation } from 'react-i18next';
import { ROLE } from '../../api/model/user';
import { useOwnUserId, useUsersById } from '../../model/hooks';
import { DefaultChannelsSection } from '../channels/DefaultChannelsSection';
import { SettingsLayout, type SettingsSection } from '../settings/SettingsLayout';
import { UsersSection } from './users/UsersSection';
import { InvitationsSection } from './users/InvitationsSection';
import { AllBotsSection } from './users/BotsSection';
import { i18n } from '../../i18n';
import { CustomEmojiSection } from './CustomEmojiSection';
import { LinkifiersSection } from './LinkifiersSection';
import { OrgPermissionsSection } from './OrgPermissionsSection';
import { OrgProfileSection } from './OrgProfileSection';
import { OrgSettingsSection } from './OrgSettingsSection';
import { ProfileFieldsSection } from './ProfileFieldsSection';
import { MailSection } from './MailSection';
import { LoadingState } from '../../components/StatePanel';
import { useQuery } from '@tanstack/react-query';
import { serverSettingsQuery } from '../../queries/account';
import { useSessionCore } from '../../model/session-core';

interface AdminSection extends SettingsSection {
  /** the least role that sees the section (ROLE values: lower is more) */
  minRole: number;
}

/** What the server offers beyond the Zulip API; undefined until it is known. */
function useExtensions(): string[] | undefined {
  const { connection } = useSessionCore();
  // Fetched once a session: what the server offers does not change while it runs.
  const settings = useQuery({ ...serverSettingsQuery(connection), staleTime: Infinity });
  if (settings.isPending) return undefined;
  return settings.data?.parley_extensions ?? [];
}

function useAdminSections(extensions: string[] | undefined): AdminSection[] {
  const { t: tOrg } = useTranslation('adminOrg');
  return [
    // Everyone may read how the organization is set up, as in the reference app.
    {
      id: 'profile',
      title: tOrg('sections.profile'),
      Component: OrgProfileSection,
      minRole: ROLE.GUEST,
    },
    {
      id: 'settings',
      title: tOrg('sections.settings'),
      Component: OrgSettingsSection,
      minRole: ROLE.GUEST,
    },
    {
      id: 'permissions',
      title: tOrg('sections.permissions'),
      Component: OrgPermissionsSection,
      minRole: ROLE.GUEST,
    },
    {
      id: 'profile-fields',
      title: tOrg('sections.profileFields'),
      Component: ProfileFieldsSection,
      minRole: ROLE.GUEST,
    },
    {
      id: 'linkifiers',
      title: tOrg('sections.linkifiers'),
      Component: LinkifiersSection,
      minRole: ROLE.GUEST,
    },
    {
      id: 'emoji',
      title: tOrg('sections.emoji'),
      Component: CustomEmojiSection,
      minRole: ROLE.GUEST,
    },
    {
      id: 'users',
      title: i18n.t('adminUsers:sections.users'),
      Component: UsersSection,
      minRole: ROLE.ADMINISTRATOR,
      wide: true,
    },
    {
      id: 'bots',
      title: i18n.t('adminUsers:sections.bots'),
      Component: AllBotsSection,
      minRole: ROLE.ADMINISTRATOR,
      wide: true,
    },
    {
      id: 'invitations',
      title: i18n.t('adminUsers:sections.invitations'),
      Component: InvitationsSection,
      minRole: ROLE.ADMINISTRATOR,
      wide: true,
    },
    {
      id: 'default-channels',
      title: i18n.t('channels:defaults.title'),
      Component: DefaultChannelsSection,
      minRole: ROLE.ADMINISTRATOR,
    },
    ...(extensions?.includes('mail_log') ? [mailSection(tOrg('sections.mail'))] : []),
  ];
}

/** Outgoing mail: a Parley extension, offered where the server announces it. */
const mailSection = (title: string): AdminSection => ({
  id: 'mail',
  title,
  Component: MailSection,
  minRole: ROLE.ADMINISTRATOR,
  wide: true,
});

export function AdminView({ section }: { section: string | undefined }) {
  const { t } = useTranslation();
  const role = useUsersById()[useOwnUserId()]?.role ?? ROLE.GUEST;
  const extensions = useExtensions();
  const sections = useAdminSections(extensions).filter((s) => role <= s.minRole);
  // An extension's page, opened by its address: wait to know whether the server offers it.
  if (extensions === undefined && section === 'mail') return <LoadingState />;
  return (
    <SettingsLayout
      title={t('pages.organization')}
      basePath="/organization"
      sections={sections}
      active={section}
      other={{ to: '/settings', label: t('pages.settings') }}
    />
  );
}
