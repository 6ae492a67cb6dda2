/**
 * Linkifiers: patterns the server turns into links in every message (e.g. `#1234` to an issue).
 * Administrators add, edit and delete them, with a preview that applies the pattern and URL
 * template to a sample they type; realm_linkifiers events update every window.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Linkifier } from '../../api/model';
import { EmptyState } from '../../components/StatePanel';
import { useLinkifiers } from '../../model/hooks';
import { AddItem, EditableRow, EditFormButtons } from './EditableRow';
import {
  loadLinkifierEngine,
  previewLinkifier,
  type LinkifierEngine,
  type Preview,
  type PreviewProblem,
} from './linkifier-preview';
import { ReadOnlyNote } from './org-controls';
import { useDeleteLinkifier, useSaveLinkifier } from './org-queries';

/** Examples in the fields, the same in every language. */
const EXAMPLE_PATTERN = '#(?P<id>[0-9]+)';
const EXAMPLE_TEMPLATE = 'https://github.com/example/project/issues/{id}';

function useProblemText() {
  const { t } = useTranslation('adminOrg');
  return (problem: PreviewProblem): string => {
    switch (problem.kind) {
      case 'emptyPattern':
        return t('linkifiers.problem.empty');
      case 'badPattern':
        return t('linkifiers.problem.pattern', { detail: problem.detail });
      case 'badTemplate':
        return t('linkifiers.problem.template');
      case 'unknownVariable':
        return t('linkifiers.problem.unknownVariable', { name: problem.name });
      case 'unusedGroup':
        return t('linkifiers.problem.unusedGroup', { name: problem.name });
    }
  };
}

/** The pattern engine, once its chunk has loaded (null until then). */
function useLinkifierEngine(): LinkifierEngine | null {
  const [engine, setEngine] = useState<LinkifierEngine | null>(null);
  useEffect(() => {
    let live = true;
    void loadLinkifierEngine().then((loaded) => {
      // A function given to setState would be called: wrap the class.
      if (live) setEngine(() => loaded);
    });
    return () => {
      live = false;
    };
  }, []);
  return engine;
}

function LinkifierForm({ linkifier, onDone }: { linkifier?: Linkifier; onDone(): void }) {
  const { t } = useTranslation('adminOrg');
  const save = useSaveLinkifier();
  const [pattern, setPattern] = useState(linkifier?.pattern ?? '');
  const [template, setTemplate] = useState(linkifier?.url_template ?? '');
  const [sample, setSample] = useState('');
  const ids = { pattern: useId(), template: useId(), sample: useId() };
  const engine = useLinkifierEngine();
  const preview = engine ? previewLinkifier(engine, pattern, template, sample) : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(
      { id: linkifier?.id, linkifier: { pattern, url_template: template } },
      { onSuccess: onDone },
    );
  };
  const started = pattern !== '' || template !== '';
  return (
    <form
      className="admin-form"
      onSubmit={submit}
      aria-label={linkifier ? t('linkifiers.editTitle') : t('linkifiers.addTitle')}
    >
      <div className="admin-form-grid">
        <div className="admin-field">
          <label htmlFor={ids.pattern}>{t('linkifiers.pattern')}</label>
          <input
            id={ids.pattern}
            className="text-input admin-mono"
            value={pattern}
            placeholder={EXAMPLE_PATTERN}
            required
            spellCheck={false}
            onChange={(e) => setPattern(e.target.value)}
          />
        </div>
        <div className="admin-field">
          <label htmlFor={ids.template}>{t('linkifiers.template')}</label>
          <input
            id={ids.template}
            className="text-input admin-mono"
            value={template}
            placeholder={EXAMPLE_TEMPLATE}
            required
            spellCheck={false}
            onChange={(e) => setTemplate(e.target.value)}
          />
        </div>
        <div className="admin-field admin-field-wide">
          <label htmlFor={ids.sample}>{t('linkifiers.sample')}</label>
          <input
            id={ids.sample}
            className="text-input"
            value={sample}
            placeholder={t('linkifiers.samplePlaceholder')}
            onChange={(e) => setSample(e.target.value)}
          />
        </div>
      </div>
      <LinkifierPreview preview={started ? preview : null} sample={sample} />
      <EditFormButtons
        save={save}
        submitLabel={linkifier ? t('save') : t('linkifiers.add')}
        onCancel={onDone}
      />
    </form>
  );
}

/** The links the pattern and template make of the sample, or what is wrong with them. */
function LinkifierPreview({ preview, sample }: { preview: Preview | null; sample: string }) {
  const { t } = useTranslation('adminOrg');
  const problemText = useProblemText();
  const id = useId();
  return (
    <section className="admin-preview" aria-labelledby={id} aria-live="polite">
      <h4 id={id}>{t('linkifiers.preview')}</h4>
      {!preview ? (
        <p className="settings-hint">{t('linkifiers.previewIdle')}</p>
      ) : !preview.ok ? (
        <p className="admin-problem">{problemText(preview.problem)}</p>
      ) : preview.links.length === 0 ? (
        <p className="settings-hint">
          {sample ? t('linkifiers.noMatches') : t('linkifiers.typeSample')}
        </p>
      ) : (
        <ul className="admin-preview-links">
          {preview.links.map((link, i) => (
            <li key={i}>
              <span className="admin-mono">{link.text}</span>
              <span aria-hidden="true">→</span>
              <a href={link.url} target="_blank" rel="noreferrer noopener">
                {link.url}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function LinkifierRow({ linkifier }: { linkifier: Linkifier }) {
  const { t } = useTranslation('adminOrg');
  const remove = useDeleteLinkifier();
  return (
    <EditableRow
      editName={t('linkifiers.edit', { pattern: linkifier.pattern })}
      deleteName={t('linkifiers.delete', { pattern: linkifier.pattern })}
      confirmDelete={t('linkifiers.confirmDelete', { pattern: linkifier.pattern })}
      remove={remove}
      onDelete={() => remove.mutate(linkifier.id)}
      editForm={(done) => <LinkifierForm linkifier={linkifier} onDone={done} />}
    >
      <dl className="admin-item-text admin-linkifier">
        <dt>{t('linkifiers.pattern')}</dt>
        <dd className="admin-mono">{linkifier.pattern}</dd>
        <dt>{t('linkifiers.template')}</dt>
        <dd className="admin-mono">{linkifier.url_template}</dd>
      </dl>
    </EditableRow>
  );
}

export function LinkifiersSection() {
  const { t } = useTranslation('adminOrg');
  const linkifiers = useLinkifiers();
  return (
    <div className="admin-org">
      <ReadOnlyNote />
      <p className="settings-hint">{t('linkifiers.intro')}</p>
      <AddItem label={t('linkifiers.addButton')} form={(done) => <LinkifierForm onDone={done} />} />
      {linkifiers.length === 0 ? (
        <EmptyState title={t('linkifiers.emptyTitle')}>{t('linkifiers.emptyMessage')}</EmptyState>
      ) : (
        <ul className="admin-list" aria-label={t('linkifiers.listLabel')}>
          {linkifiers.map((linkifier) => (
            <LinkifierRow key={linkifier.id} linkifier={linkifier} />
          ))}
        </ul>
      )}
    </div>
  );
}
