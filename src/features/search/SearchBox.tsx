/**
 * The search box of the top bar: the search language with typeahead (an ARIA combobox), the
 * current search's operators shown while one is open, and a button to clear it.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Avatar } from '../../components/Avatar';
import { SuggestionList, type Suggestion } from '../../components/Combobox';
import { SearchIcon } from '../../components/icons';
import { narrowToUrl, narrowUrlAt, parsePlaceUrl, type Narrow } from '../../narrow';
import { streamTopicsQuery } from '../../queries/topics';
import { useSession } from '../../model/session-context';
import { narrowToSearchText, searchToNarrow } from './search-query';
import { channelInText, peopleIndex, suggest, type SearchSuggestion } from './search-suggestions';
import { useSearchDirectory } from './use-search-directory';

/** Narrows the search box describes: searches and every combination of operators. */
const isSearchNarrow = (narrow: Narrow) => narrow.kind === 'search' || narrow.kind === 'filter';

/** The channel a narrow is in, for the readable part of its URL. */
function streamIdOf(narrow: Narrow): number | undefined {
  if (narrow.kind === 'stream' || narrow.kind === 'topic') return narrow.streamId;
  if (narrow.kind !== 'filter') return undefined;
  const channel = narrow.terms.find((t) => t.operator === 'channel' && !t.negated);
  return channel ? Number(channel.operand) : undefined;
}

export function SearchBox() {
  const { t } = useTranslation('search');
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const directory = useSearchDirectory();
  const listId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);

  const place = parsePlaceUrl(location.pathname, directory.ownUserId);
  const shownNarrow =
    place?.kind === 'narrow' && isSearchNarrow(place.narrow) ? place.narrow : null;
  const shownText = shownNarrow ? narrowToSearchText(shownNarrow, directory) : '';
  // Opening a search shows its operators; leaving it empties the box.
  useEffect(() => {
    setText(shownText);
    setProblem(null);
  }, [shownText]);

  const people = useMemo(() => peopleIndex(directory.users), [directory.users]);
  const topicStream = open ? channelInText(text, directory) : null;
  const topics = useQuery({
    ...streamTopicsQuery(session.connection, topicStream ?? -1),
    enabled: topicStream !== null,
  });
  const topicNames = useMemo(() => (topics.data ?? []).map((t) => t.name), [topics.data]);
  const suggestions = useMemo(
    () => (open ? suggest(text, { directory, people, topicsOf: () => topicNames }) : []),
    [open, text, directory, people, topicNames],
  );
  const activeIndex = Math.min(active, suggestions.length - 1);

  const run = (query: string) => {
    if (!query.trim()) return;
    const { narrow, target, problems } = searchToNarrow(query, directory);
    if (problems.length > 0) {
      setProblem(problems.join(' '));
      return;
    }
    setProblem(null);
    setOpen(false);
    const streamId = streamIdOf(narrow);
    const streamName = streamId === undefined ? undefined : directory.streams[streamId]?.name;
    navigate(target ? narrowUrlAt(narrow, target, streamName) : narrowToUrl(narrow, streamName));
    input.current?.blur();
  };

  const pick = (suggestion: SearchSuggestion) => {
    if (suggestion.kind === 'search') {
      run(suggestion.text);
      return;
    }
    setText(suggestion.text);
    setActive(0);
    setOpen(true);
    input.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const visible = open && suggestions.length > 0;
    if (visible && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + step + suggestions.length) % suggestions.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const chosen = visible ? suggestions[activeIndex] : undefined;
      if (chosen) pick(chosen);
      else run(text);
    } else if (event.key === 'Tab' && visible) {
      // Tab completes: the highlighted completion, or else the first one offered.
      const completion =
        suggestions[activeIndex]?.kind === 'complete'
          ? suggestions[activeIndex]
          : suggestions.find((s) => s.kind === 'complete');
      if (completion) {
        event.preventDefault();
        pick(completion);
      }
    } else if (event.key === 'Escape') {
      if (visible) {
        event.stopPropagation();
        setOpen(false);
      } else input.current?.blur();
    }
  };

  const clear = () => {
    setText('');
    setProblem(null);
    setActive(0);
    if (shownNarrow) navigate('/');
    input.current?.focus();
  };

  const listed: Suggestion[] = suggestions.map((s) =>
    s.kind === 'search'
      ? {
          key: s.key,
          label: s.text,
          detail: t('suggest.search'),
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

  const visible = open && listed.length > 0;
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
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(0);
          setProblem(null);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {text && (
        <button
          type="button"
          className="search-clear"
          aria-label={t('box.clear')}
          title={t('box.clear')}
          onMouseDown={(event) => event.preventDefault()}
          onClick={clear}
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
