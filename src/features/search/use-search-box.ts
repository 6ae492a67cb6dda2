/**
 * The search box's state: its pills and the text being typed, whether its suggestions are open,
 * and what they are. The search language that parses and suggests loads when the box is first
 * used (use-search-language.ts); until then what is typed stays text.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { errorText } from '../../api/errors';
import type { Message } from '../../api/model';
import { narrowToUrl, narrowUrlAt, parsePlaceUrl, type Narrow } from '../../narrow';
import { recentMessagesQuery } from '../../queries/messages';
import { streamTopicsQuery } from '../../queries/topics';
import { useSession } from '../../model/session-context';
import { groupConversations } from '../recent/recent-filter';
import type { SearchDraft } from './search-pills';
import type { SearchDirectory } from './search-query';
import type { RecentTopic, SearchSuggestion } from './search-suggestions';
import { loadSearchLanguage, useSearchLanguage, type SearchLanguage } from './use-search-language';

const EMPTY_DRAFT: SearchDraft = { pills: [], text: '' };

/** Narrows the search box shows at rest: searches and every combination of operators. */
const isSearchNarrow = (narrow: Narrow) => narrow.kind === 'search' || narrow.kind === 'filter';

/** The channel a narrow is in, for the readable part of its URL. */
function streamIdOf(narrow: Narrow): number | undefined {
  if (narrow.kind === 'stream' || narrow.kind === 'topic') return narrow.streamId;
  if (narrow.kind !== 'filter') return undefined;
  const channel = narrow.terms.find((t) => t.operator === 'channel' && !t.negated);
  return channel ? Number(channel.operand) : undefined;
}

/**
 * The narrow of the page and its terms as the box shows them. They show in the box (a search's
 * at once), so the language is needed there at once; elsewhere once the box is focused.
 */
function useShownNarrow(pathname: string, focused: boolean, directory: SearchDirectory) {
  const place = parsePlaceUrl(pathname, directory.ownUserId);
  const narrow = place?.kind === 'narrow' ? place.narrow : null;
  const language = useSearchLanguage(narrow !== null || focused);
  const narrowText = narrow && language ? language.narrowToSearchText(narrow, directory) : '';
  const shown = useMemo(
    () => (language ? language.narrowDraft(narrowText, directory) : EMPTY_DRAFT),
    [language, narrowText, directory],
  );
  return { narrow, searching: narrow !== null && isSearchNarrow(narrow), language, shown };
}

/** Runs the search the box holds: to its narrow, or says what is wrong with it. */
function useRunSearch(
  directory: SearchDirectory,
  language: SearchLanguage | null,
  box: {
    input: RefObject<HTMLInputElement | null>;
    setOpen: (open: boolean) => void;
    setProblem: (problem: string | null) => void;
  },
) {
  const navigate = useNavigate();
  const runWith = (draft: SearchDraft, language: SearchLanguage) => {
    const query = language.draftQuery(draft);
    if (!query) return;
    const { narrow, target, problems } = language.searchToNarrow(query, directory);
    if (problems.length > 0) {
      box.setProblem(problems.join(' '));
      return;
    }
    box.setProblem(null);
    box.setOpen(false);
    const streamId = streamIdOf(narrow);
    const streamName = streamId === undefined ? undefined : directory.streams[streamId]?.name;
    navigate(target ? narrowUrlAt(narrow, target, streamName) : narrowToUrl(narrow, streamName));
    box.input.current?.blur();
  };
  // Enter before the language has come waits for it.
  return (draft: SearchDraft) => {
    if (language) runWith(draft, language);
    else
      loadSearchLanguage().then(
        (loaded) => runWith(draft, loaded),
        (error: unknown) => box.setProblem(errorText(error)),
      );
  };
}

export function useSearchBox(directory: SearchDirectory) {
  const location = useLocation();
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  /** what the person changed; null while the box shows the narrow as it is */
  const [draft, setDraft] = useState<SearchDraft | null>(null);
  const [focused, setFocused] = useState(false);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);

  const { searching, language, shown } = useShownNarrow(location.pathname, focused, directory);
  // Another view starts afresh (not the language's coming, which may find text typed already).
  useEffect(() => {
    setDraft(null);
    setProblem(null);
  }, [location.pathname]);
  // A search's terms stay in view; any other view's show once the box is opened, to refine it.
  const current = draft ?? (searching || focused ? shown : EMPTY_DRAFT);

  const runSearch = useRunSearch(directory, language, { input, setOpen, setProblem });
  const run = () => runSearch(current);

  /** New text: complete terms in it become pills after those there are. */
  const type = (typed: string) => {
    const taken = language ? language.takePills(typed, directory) : { pills: [], text: typed };
    setDraft({ pills: [...current.pills, ...taken.pills], text: taken.text });
    setOpen(true);
    setActive(0);
    setProblem(null);
  };

  const pick = (suggestion: SearchSuggestion) => {
    if (suggestion.kind === 'search') {
      run();
      return;
    }
    type(suggestion.text);
    input.current?.focus();
  };

  const removePill = (index: number) => {
    setDraft({ ...current, pills: current.pills.filter((_, i) => i !== index) });
    setActive(0);
    setProblem(null);
  };

  const clear = () => {
    setDraft(EMPTY_DRAFT);
    setProblem(null);
    setActive(0);
    if (searching) navigate('/');
    input.current?.focus();
  };

  return {
    input,
    pills: current.pills,
    text: current.text,
    setFocused,
    open,
    setOpen,
    language,
    active,
    setActive,
    problem,
    run,
    pick,
    type,
    removePill,
    clear,
  };
}

export type SearchBoxState = ReturnType<typeof useSearchBox>;

/** Conversations in channels, newest first, from what the Recent view shows. */
function recentTopicsOf(messages: readonly Message[]): RecentTopic[] {
  const topics: RecentTopic[] = [];
  for (const { latest } of groupConversations(messages))
    if (latest.type === 'stream')
      topics.push({ streamId: latest.stream_id, topic: latest.subject });
  return topics;
}

/** What to offer for the typed text, while the suggestions are open. */
export function useSearchSuggestions(
  box: Pick<SearchBoxState, 'text' | 'pills' | 'open' | 'language'>,
  directory: SearchDirectory,
): SearchSuggestion[] {
  const { text, pills, language } = box;
  const open = box.open && language !== null;
  const session = useSession();
  const people = useMemo(() => language?.peopleIndex(directory.users), [language, directory.users]);
  const topicStream =
    open && language
      ? (language.channelInText(text, directory) ?? language.pillChannel(pills, directory))
      : null;
  const topics = useQuery({
    ...streamTopicsQuery(session.connection, topicStream ?? -1),
    enabled: topicStream !== null,
  });
  // Without a channel, `topic:` offers the topics of recent conversations.
  const recent = useQuery({
    ...recentMessagesQuery(session.connection),
    enabled: open && topicStream === null && !!language?.typingTopic(text),
  });
  const topicNames = useMemo(
    () => [...(topics.data ?? [])].sort((a, b) => b.maxId - a.maxId).map((t) => t.name),
    [topics.data],
  );
  const recentTopics = useMemo(
    () => recentTopicsOf(recent.data?.pages.flatMap((p) => p.messages) ?? []),
    [recent.data],
  );
  return useMemo(
    () =>
      open && language && people
        ? language.suggest(text, {
            directory,
            people,
            topicsOf: () => topicNames,
            pills,
            recentTopics,
          })
        : [],
    [open, language, text, directory, people, topicNames, pills, recentTopics],
  );
}
