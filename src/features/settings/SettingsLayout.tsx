/**
 * The frame of the personal settings (`/settings/<section>`) and the organization's administration
 * (`/organization/<section>`): a list of sections beside the open one, as the reference app lays
 * them out. On a phone the list comes first and a section replaces it, with a way back.
 */
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { Link } from '../../components/Link';

export interface SettingsSection {
  /** the URL segment, `/settings/<id>` */
  id: string;
  /** its name in the list and as the heading */
  title: string;
  Component: ComponentType;
  /** a list that uses the page's whole width (the people of an organization), not a column of rows */
  wide?: boolean;
}

interface SettingsLayoutProps {
  /** the page's heading, e.g. "Personal settings" */
  title: string;
  /** `/settings` or `/organization` */
  basePath: string;
  /** the sections this person may open, in order */
  sections: readonly SettingsSection[];
  /** the open section's id, from the URL; none opens the first (on a wide screen) */
  active: string | undefined;
  /** a link to the other settings page, under the list */
  other?: { to: string; label: string };
}

export function SettingsLayout({ title, basePath, sections, active, other }: SettingsLayoutProps) {
  const { t } = useTranslation();
  const open = sections.find((section) => section.id === active);
  if (active !== undefined && !open) return <Navigate to={basePath} replace />;
  const shown = open ?? sections[0];
  const navId = `${basePath.slice(1)}-sections`;
  return (
    <div className="view-scroll">
      <div className="settings-page" data-section-open={open !== undefined}>
        <nav className="settings-nav" aria-labelledby={`${navId}-title`}>
          <h1 id={`${navId}-title`}>{title}</h1>
          <ul>
            {sections.map((section) => (
              <li key={section.id}>
                <Link
                  to={`${basePath}/${section.id}`}
                  aria-current={section === shown ? 'page' : undefined}
                >
                  {section.title}
                </Link>
              </li>
            ))}
          </ul>
          {other && (
            <Link className="settings-other" to={other.to}>
              {other.label}
            </Link>
          )}
        </nav>
        {shown && (
          <section
            className="settings-view"
            data-wide={shown.wide === true}
            aria-labelledby="settings-section-title"
          >
            <Link className="settings-back" to={basePath}>
              {t('settingsLayout.back', { title })}
            </Link>
            <h2 id="settings-section-title" className="settings-section-title">
              {shown.title}
            </h2>
            <shown.Component />
          </section>
        )}
      </div>
    </div>
  );
}
