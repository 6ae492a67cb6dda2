/** The organization's user groups: the user's own or all of them, searchable. */
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../components/Link';
import { EmptyState } from '../../components/StatePanel';
import { useOwnUserId, useUserGroups } from '../../model/hooks';
import { listedGroups, type GroupTab } from './group-names';
import { useMayCreateGroups } from './use-group-permissions';

const TABS: readonly GroupTab[] = ['mine', 'all'];

export function GroupList() {
  const { t } = useTranslation('groups');
  const state = useUserGroups();
  const ownUserId = useOwnUserId();
  const mayCreate = useMayCreateGroups();
  const [tab, setTab] = useState<GroupTab>('mine');
  const [filter, setFilter] = useState('');
  const ids = useId();
  const groups = useMemo(
    () => listedGroups(state, tab, ownUserId, filter),
    [state, tab, ownUserId, filter],
  );

  return (
    <section className="groups-page" aria-labelledby="groups-title">
      <header className="groups-header">
        <h1 id="groups-title">{t('title')}</h1>
        {mayCreate && (
          <Link className="button button-primary" to="/groups/new">
            {t('create.open')}
          </Link>
        )}
      </header>
      <p className="groups-intro">{t('intro')}</p>
      <div className="groups-toolbar">
        <GroupTabs ids={ids} tab={tab} onChange={setTab} />
        <label htmlFor={`${ids}-search`} className="visually-hidden">
          {t('search.label')}
        </label>
        <input
          id={`${ids}-search`}
          className="text-input groups-search"
          type="search"
          placeholder={t('search.placeholder')}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      </div>
      <div id={`${ids}-panel`} role="tabpanel" aria-labelledby={`${ids}-tab-${tab}`}>
        {groups.length > 0 ? (
          <ul className="groups-list" aria-label={t(`tabs.${tab}`)}>
            {groups.map((group) => (
              <li key={group.id} className="groups-row">
                <Link className="groups-row-name" to={`/groups/${group.id}`}>
                  {group.name}
                </Link>
                {group.description && (
                  <span className="groups-row-description">{group.description}</span>
                )}
                <span className="groups-row-count">
                  {t('list.memberCount', { count: group.members.length })}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <NoGroups tab={tab} filter={filter} />
        )}
      </div>
    </section>
  );
}

/** The two tabs, in the tab pattern: arrow keys move between them. */
function GroupTabs({
  ids,
  tab,
  onChange,
}: {
  ids: string;
  tab: GroupTab;
  onChange: (tab: GroupTab) => void;
}) {
  const { t } = useTranslation('groups');
  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next = TABS[(TABS.indexOf(tab) + 1) % TABS.length]!;
    onChange(next);
    document.getElementById(`${ids}-tab-${next}`)?.focus();
  };

  return (
    <div className="groups-tabs" role="tablist" aria-label={t('tabs.label')}>
      {TABS.map((name) => (
        <button
          key={name}
          id={`${ids}-tab-${name}`}
          type="button"
          role="tab"
          className="groups-tab"
          aria-selected={tab === name}
          aria-controls={`${ids}-panel`}
          tabIndex={tab === name ? 0 : -1}
          onClick={() => onChange(name)}
          onKeyDown={onTabKey}
        >
          {t(`tabs.${name}`)}
        </button>
      ))}
    </div>
  );
}

/** Why the list is empty: nothing matches the search, or the tab has no groups. */
function NoGroups({ tab, filter }: { tab: GroupTab; filter: string }) {
  const { t } = useTranslation('groups');
  if (filter.trim())
    return (
      <EmptyState title={t('empty.noMatchTitle', { filter: filter.trim() })}>
        {t('empty.noMatchBody')}
      </EmptyState>
    );
  if (tab === 'mine')
    return <EmptyState title={t('empty.mineTitle')}>{t('empty.mineBody')}</EmptyState>;
  return <EmptyState title={t('empty.allTitle')}>{t('empty.allBody')}</EmptyState>;
}
