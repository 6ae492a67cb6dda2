/**
 * The search box of the top bar: the search language with typeahead (an ARIA combobox), each
 * complete operator term shown as a removable pill (the current view's too, once the box is
 * opened), and a button to clear it.
 */
import {
  useEffect,
  useId,
  useRef,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type RefObject,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components/Avatar';
import { SuggestionList, type Suggestion } from '../../components/Combobox';
import { CloseIcon, SearchIcon } from '../../components/icons';
import type { SearchDirectory } from './search-query';
import type { SearchSuggestion } from './search-suggestions';
import { useSearchBox, useSearchSuggestions, type SearchBoxState } from './use-search-box';
import { useSearchDirectory } from './use-search-directory';
import type { SearchLanguage } from './use-search-language';

export function SearchBox() {
  const { t } = useTranslation('search');
  const directory = useSearchDirectory();
  const listId = useId();
  const box = useSearchBox(directory);
  const { input, text, pills, problem, pick } = box;
  const pillList = useRef<HTMLUListElement>(null);
  const suggestions = useSearchSuggestions(box, directory);
  const activeIndex = Math.min(box.active, suggestions.length - 1);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) =>
    onSearchKeyDown(event, box, suggestions, activeIndex, pillList);
  const listed = listedSuggestions(suggestions, directory, t('suggest.search'));

  const visible = box.open && listed.length > 0;
  return (
    <form
      className="topbar-search search-box"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        box.run();
      }}
      {...focusHandlers(box)}
    >
      <label htmlFor="search-input" className="visually-hidden">
        {t('box.label')}
      </label>
      <SearchIcon />
      {pills.length > 0 && box.language && (
        <SearchPills box={box} language={box.language} directory={directory} list={pillList} />
      )}
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
        placeholder={pills.length > 0 ? undefined : t('box.placeholder')}
        value={text}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => box.type(event.target.value)}
        onFocus={() => box.setOpen(true)}
        onBlur={() => box.setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {(text || pills.length > 0) && (
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

/** The box is in use while the focus is anywhere in it; a click beside the text is for the text. */
function focusHandlers(box: SearchBoxState) {
  return {
    onFocus: () => box.setFocused(true),
    onBlur: (event: FocusEvent<HTMLFormElement>) => {
      if (!event.currentTarget.contains(event.relatedTarget)) box.setFocused(false);
    },
    onClick: (event: MouseEvent<HTMLFormElement>) => {
      // On a pill's name, the icon or the padding: not on a button, the text or a suggestion.
      if (!(event.target as Element).closest('button, input, [role="option"]'))
        box.input.current?.focus();
    },
  };
}

/**
 * The pills, each with a button that removes it. On a button, the left and right arrows move
 * between the pills (right from the last one back to the text), Backspace or Delete removes, and
 * Escape leaves the box.
 */
function SearchPills(props: {
  box: SearchBoxState;
  language: SearchLanguage;
  directory: SearchDirectory;
  list: RefObject<HTMLUListElement | null>;
}) {
  const { box, language, directory, list } = props;
  const { pillLabel, pillText } = language;
  const { t } = useTranslation('search');
  // A pill just added shows, however many there are before it; a view's pills show from the first.
  const count = box.pills.length;
  const before = useRef(count);
  useEffect(() => {
    if (list.current && count > before.current) list.current.scrollLeft = list.current.scrollWidth;
    before.current = count;
  }, [count, list]);
  const remove = (index: number) => {
    // The focus goes back to the text, not to the page, as the button goes.
    box.input.current?.focus();
    box.removePill(index);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const buttons = list.current?.querySelectorAll('button') ?? [];
    if (event.key === 'ArrowLeft' && index > 0) buttons[index - 1]?.focus();
    else if (event.key === 'ArrowRight')
      (index + 1 < buttons.length ? buttons[index + 1] : box.input.current)?.focus();
    else if (event.key === 'Backspace' || event.key === 'Delete') remove(index);
    // Leaves the box, as from the text, rather than going to the home view.
    else if (event.key === 'Escape') event.currentTarget.blur();
    else return;
    event.preventDefault();
  };
  return (
    <ul className="search-pills" aria-label={t('pill.list')} ref={list}>
      {box.pills.map((pill, index) => {
        const label = pillLabel(pill, directory);
        return (
          <li key={`${index}:${pillText(pill)}`} className="search-pill">
            <span className="search-pill-label" title={label}>
              {label}
            </span>
            <button
              type="button"
              className="search-pill-remove"
              aria-label={t('pill.remove', { term: label })}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => remove(index)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              <CloseIcon />
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * Arrows move through the suggestions, Enter picks or searches, Tab completes, Escape closes.
 * In empty text Backspace removes the last pill; the left arrow at the start goes to the pills.
 */
function onSearchKeyDown(
  event: KeyboardEvent<HTMLInputElement>,
  box: SearchBoxState,
  suggestions: SearchSuggestion[],
  activeIndex: number,
  pillList: RefObject<HTMLUListElement | null>,
) {
  const visible = box.open && suggestions.length > 0;
  const { selectionStart, selectionEnd } = event.currentTarget;
  if (event.key === 'Backspace' && box.text === '' && box.pills.length > 0) {
    event.preventDefault();
    box.removePill(box.pills.length - 1);
  } else if (event.key === 'ArrowLeft' && selectionStart === 0 && selectionEnd === 0) {
    const last = pillList.current?.querySelector<HTMLButtonElement>('li:last-child button');
    if (last) {
      event.preventDefault();
      last.focus();
    }
  } else if (visible && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
    event.preventDefault();
    const step = event.key === 'ArrowDown' ? 1 : -1;
    box.setActive((activeIndex + step + suggestions.length) % suggestions.length);
  } else if (event.key === 'Enter') {
    event.preventDefault();
    const chosen = visible ? suggestions[activeIndex] : undefined;
    if (chosen) box.pick(chosen);
    else box.run();
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
