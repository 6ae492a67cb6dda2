/** The search box's state: what is typed, whether its suggestions are open, and what they are. */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { narrowToUrl, narrowUrlAt, parsePlaceUrl, type Narrow } from '../../narrow';
import { streamTopicsQuery } from '../../queries/topics';
import { useSession } from '../../model/session-context';
import { narrowToSearchText, searchToNarrow, type SearchDirectory } from './search-query';
import { channelInText, peopleIndex, suggest, type SearchSuggestion } from './search-suggestions';

/** Narrows the search box describes: searches and every combination of operators. */
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

  const type = (typed: string) => {
    setText(typed);
    setOpen(true);
    setActive(0);
    setProblem(null);
  };

  const clear = () => {
    setText('');
    setProblem(null);
    setActive(0);
    if (shownNarrow) navigate('/');
    input.current?.focus();
  };

  return { input, text, open, setOpen, active, setActive, problem, run, pick, type, clear };
}

export type SearchBoxState = ReturnType<typeof useSearchBox>;

/** What to offer for the typed text, while the suggestions are open. */
export function useSearchSuggestions(text: string, open: boolean, directory: SearchDirectory) {
  const session = useSession();
  const people = useMemo(() => peopleIndex(directory.users), [directory.users]);
  const topicStream = open ? channelInText(text, directory) : null;
  const topics = useQuery({
    ...streamTopicsQuery(session.connection, topicStream ?? -1),
    enabled: topicStream !== null,
  });
  const topicNames = useMemo(() => (topics.data ?? []).map((t) => t.name), [topics.data]);
  return useMemo(
    () => (open ? suggest(text, { directory, people, topicsOf: () => topicNames }) : []),
    [open, text, directory, people, topicNames],
  );
}
