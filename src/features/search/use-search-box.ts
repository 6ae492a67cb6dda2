/**
 * The search box's state: its pills and the text being typed, whether its suggestions are open,
 * and what they are.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { Message } from '../../api/model';
import { narrowToUrl, narrowUrlAt, parsePlaceUrl, type Narrow } from '../../narrow';
import { recentMessagesQuery } from '../../queries/messages';
import { streamTopicsQuery } from '../../queries/topics';
import { useSession } from '../../model/session-context';
import { groupConversations } from '../recent/recent-filter';
import {
  draftQuery,
  EMPTY_DRAFT,
  narrowDraft,
  pillChannel,
  takePills,
  type SearchDraft,
} from './search-pills';
import { narrowToSearchText, searchToNarrow, type SearchDirectory } from './search-query';
import {
  channelInText,
  peopleIndex,
  suggest,
  typingTopic,
  type RecentTopic,
  type SearchSuggestion,
} from './search-suggestions';

/** Narrows the search box shows at rest: searches and every combination of operators. */
const isSearchNarrow = (narrow: Narrow) => narrow.kind === 'search' || narrow.kind === 'filter';

/** The channel a narrow is in, for the readable part of its URL. */
function streamIdOf(narrow: Narrow): number | undefined {
  if (narrow.kind === 'stream' || narrow.kind === 'topic') return narrow.streamId;
  if (narrow.kind !== 'filter') return undefined;
  const channel = narrow.terms.find((t) => t.operator === 'channel' && !t.negated);
  return channel ? Number(channel.operand) : undefined;
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

  const place = parsePlaceUrl(location.pathname, directory.ownUserId);
  const narrow = place?.kind === 'narrow' ? place.narrow : null;
  const searching = narrow !== null && isSearchNarrow(narrow);
  const narrowText = narrow ? narrowToSearchText(narrow, directory) : '';
  const shown = useMemo(() => narrowDraft(narrowText, directory), [narrowText, directory]);
  // Another view starts afresh.
  useEffect(() => {
    setDraft(null);
    setProblem(null);
  }, [narrowText]);
  // A search's terms stay in view; any other view's show once the box is opened, to refine it.
  const current = draft ?? (searching || focused ? shown : EMPTY_DRAFT);

  const run = () => {
    const query = draftQuery(current);
    if (!query) return;
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

  /** New text: complete terms in it become pills after those there are. */
  const type = (typed: string) => {
    const taken = takePills(typed, directory);
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
  box: Pick<SearchBoxState, 'text' | 'pills' | 'open'>,
  directory: SearchDirectory,
) {
  const { text, pills, open } = box;
  const session = useSession();
  const people = useMemo(() => peopleIndex(directory.users), [directory.users]);
  const topicStream = open
    ? (channelInText(text, directory) ?? pillChannel(pills, directory))
    : null;
  const topics = useQuery({
    ...streamTopicsQuery(session.connection, topicStream ?? -1),
    enabled: topicStream !== null,
  });
  // Without a channel, `topic:` offers the topics of recent conversations.
  const recent = useQuery({
    ...recentMessagesQuery(session.connection),
    enabled: open && topicStream === null && typingTopic(text),
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
      open
        ? suggest(text, { directory, people, topicsOf: () => topicNames, pills, recentTopics })
        : [],
    [open, text, directory, people, topicNames, pills, recentTopics],
  );
}
