/**
 * The search box of the top bar: the search language with typeahead (an ARIA combobox), the
 * current search's operators shown while one is open, and a button to clear it.
 */
import { useId, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components/Avatar';
import { SuggestionList, type Suggestion } from '../../components/Combobox';
import { SearchIcon } from '../../components/icons';
import type { SearchDirectory } from './search-query';
import type { SearchSuggestion } from './search-suggestions';
import { useSearchBox, useSearchSuggestions, type SearchBoxState } from './use-search-box';
import { useSearchDirectory } from './use-search-directory';

export function SearchBox() {
  const { t } = useTranslation('search');
  const directory = useSearchDirectory();
  const listId = useId();
  const box = useSearchBox(directory);
  const { input, text, problem, run, pick } = box;
  const suggestions = useSearchSuggestions(text, box.open, directory);
  const activeIndex = Math.min(box.active, suggestions.length - 1);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) =>
    onSearchKeyDown(event, box, suggestions, activeIndex);
  const listed = listedSuggestions(suggestions, directory, t('suggest.search'));

  const visible = box.open && listed.length > 0;
  return (
    <form
      className="topbar-search search-box"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        run(text);
      }}
    >
      <label htmlFor="search-input" className="visually-hidden">
        {t('box.label')}
      </label>
      <SearchIcon />
      <input
        ref={input}
        id="search-input"
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={visible}
        aria-controls={listId}
        aria-activedescendant={visible ? `${listId}-${activeIndex}` : undefined}
        aria-describedby={problem ? `${listId}-problem` : undefined}
        placeholder={t('box.placeholder')}
        value={text}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => box.type(event.target.value)}
        onFocus={() => box.setOpen(true)}
        onBlur={() => box.setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {text && (
        <button
          type="button"
          className="search-clear"
          aria-label={t('box.clear')}
          title={t('box.clear')}
          onMouseDown={(event) => event.preventDefault()}
          onClick={box.clear}
        >
          ×
        </button>
      )}
      <SuggestionList
        id={listId}
        suggestions={visible ? listed : []}
        activeIndex={activeIndex}
        onPick={(chosen) => {
          const suggestion = suggestions.find((s) => s.key === chosen.key);
          if (suggestion) pick(suggestion);
        }}
      />
      {problem && (
        <p id={`${listId}-problem`} className="search-problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

/** Arrows move through the suggestions, Enter picks or searches, Tab completes, Escape closes. */
function onSearchKeyDown(
  event: KeyboardEvent<HTMLInputElement>,
  box: SearchBoxState,
  suggestions: SearchSuggestion[],
  activeIndex: number,
) {
  const visible = box.open && suggestions.length > 0;
  if (visible && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
    event.preventDefault();
    const step = event.key === 'ArrowDown' ? 1 : -1;
    box.setActive((activeIndex + step + suggestions.length) % suggestions.length);
  } else if (event.key === 'Enter') {
    event.preventDefault();
    const chosen = visible ? suggestions[activeIndex] : undefined;
    if (chosen) box.pick(chosen);
    else box.run(box.text);
  } else if (event.key === 'Tab' && visible) {
    // Tab completes: the highlighted completion, or else the first one offered.
    const completion =
      suggestions[activeIndex]?.kind === 'complete'
        ? suggestions[activeIndex]
        : suggestions.find((s) => s.kind === 'complete');
    if (completion) {
      event.preventDefault();
      box.pick(completion);
    }
  } else if (event.key === 'Escape') {
    if (visible) {
      event.stopPropagation();
      box.setOpen(false);
    } else box.input.current?.blur();
  }
}

/** Suggestions as the list draws them: a search with its icon, a person with their picture. */
function listedSuggestions(
  suggestions: SearchSuggestion[],
  directory: SearchDirectory,
  searchDetail: string,
): Suggestion[] {
  return suggestions.map((s) =>
    s.kind === 'search'
      ? {
          key: s.key,
          label: s.text,
          detail: searchDetail,
          decoration: <SearchIcon />,
        }
      : {
          key: s.key,
          label: s.label,
          detail: s.detail,
          decoration:
            s.userId !== undefined ? (
              <Avatar url={directory.users[s.userId]?.avatar_url} name={s.label} size={24} />
            ) : undefined,
        },
  );
}
