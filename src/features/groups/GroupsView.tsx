/**
 * User groups: `/groups` lists them, `/groups/new` creates one, `/groups/<id>` is a group's
 * panel. Everything reads the live store, so changes by anyone show here as their events arrive.
 */
import { useTranslation } from 'react-i18next';
import { Link } from '../../components/Link';
import { EmptyState } from '../../components/StatePanel';
import { CreateGroup } from './CreateGroup';
import { GroupList } from './GroupList';
import { GroupPanel } from './GroupPanel';

export function GroupsView({ path }: { path: readonly string[] | undefined }) {
  const { t } = useTranslation('groups');
  const [first] = path ?? [];
  let content;
  if (first === undefined) content = <GroupList />;
  else if (first === 'new') content = <CreateGroup />;
  else if (/^\d+$/.test(first)) content = <GroupPanel groupId={Number(first)} />;
  else
    content = (
      <EmptyState title={t('panel.notFoundTitle')}>
        <Link to="/groups">{t('panel.backToList')}</Link>
      </EmptyState>
    );
  return <div className="view-scroll groups-scroll">{content}</div>;
}
