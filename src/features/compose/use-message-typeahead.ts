/** The suggestions for the token being typed in the message field, from the live model. */
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Stream, Subscription, User, UserGroup } from '../../api/model';
import { useMemo, useRef } from 'react';
import {
  useMutedUsers,
  useOwnUserId,
  useRealmEmojiById,
  useRealmLimits,
  useStreamsById,
  useSubscriptionsById,
  useUserGroupsState,
  useUsersById,
} from '../../model/hooks';
import { i18n } from '../../i18n';
import { namedUserGroups, type UserGroupsState } from '../../model/user-groups';
import { allMessages, messageKeys, type MessageListData } from '../../queries/messages';
import { streamTopicsQuery } from '../../queries/topics';
import { useConnection } from '../../model/session-context';
import {
  buildEmojiSet,
  customEmoji,
  emojiGlyph,
  searchEmoji,
  useUnicodeEmoji,
  type EmojiSet,
} from '../emoji/emoji-data';
import {
  mayMentionManyUsers,
  mentionSuggestions,
  wildcardsFor,
  type TypeaheadItem,
} from './mention-suggestions';
import { ambiguousNames, PeopleIndex, rankByName } from './people-ranking';
import type { TypeaheadToken } from './typeahead';
import { recentSenders, type ComposePlace } from './compose-place';

export type { ComposePlace };

const LIMIT = 8;

/** Everything a mention suggestion weighs besides the query. */
interface MentionInputs {
  place: ComposePlace;
  queryClient: QueryClient;
  people: PeopleIndex;
  groups: readonly UserGroup[];
  ambiguous: ReadonlySet<string>;
  subscriptions: Readonly<Record<number, Subscription>>;
  own: User | undefined;
  realmSettings: Readonly<Record<string, unknown>>;
  groupsState: UserGroupsState;
}

function mentionItems(token: { query: string; silent: boolean }, inputs: MentionInputs) {
  const here = inputs.place;
  const list = inputs.queryClient.getQueryData<MessageListData>(messageKeys.list(here.narrow));
  const recent = recentSenders(allMessages(list), here);
  const subscriberIds =
    here.mode === 'stream' && here.streamId !== null
      ? inputs.subscriptions[here.streamId]?.subscribers
      : undefined;
  const own = inputs.own;
  const wildcards = wildcardsFor({
    direct: here.mode === 'direct',
    mayMentionMany: own
      ? mayMentionManyUsers(inputs.realmSettings, own, inputs.groupsState)
      : false,
    subscriberCount: subscriberIds?.length ?? null,
    topicParticipantCount: here.topic ? recent.length : Infinity,
  });
  return mentionSuggestions(
    {
      people: inputs.people,
      context: {
        recentSenderIds: recent,
        subscriberIds: subscriberIds ? new Set(subscriberIds) : null,
      },
      groups: inputs.groups,
      wildcards,
      ambiguous: inputs.ambiguous,
    },
    token.query,
    token.silent,
    LIMIT,
  );
}

function channelItems(
  channels: readonly Stream[],
  query: string,
  subscriptions: Readonly<Record<number, Subscription>>,
): TypeaheadItem[] {
  const { prefix, contains } = rankByName(channels, query, (s) => s.name);
  return [...prefix, ...contains].slice(0, LIMIT).map((s) => ({
    key: `channel-${s.stream_id}`,
    completion: { kind: 'channel', name: s.name },
    label: s.name,
    detail: s.stream_id in subscriptions ? undefined : i18n.t('compose:notSubscribedShort'),
  }));
}

function topicItems(channel: Stream, names: string[], query: string): TypeaheadItem[] {
  const { prefix, contains } = rankByName(names, query, (t) => t);
  const typed = query.trim();
  // A new topic can be linked too: offer what was typed when nothing matches it exactly.
  const all = [...prefix, ...contains];
  if (typed && !all.some((t) => t.toLowerCase() === typed.toLowerCase())) all.push(typed);
  return all.slice(0, LIMIT).map((t) => ({
    key: `topic-${t}`,
    completion: { kind: 'topic', channel: channel.name, topic: t },
    label: t,
    detail: channel.name,
  }));
}

function emojiItems(emojiSet: EmojiSet, query: string): TypeaheadItem[] {
  return searchEmoji(emojiSet, query, LIMIT).map((e) => ({
    key: `emoji-${e.kind}-${e.code}`,
    completion: { kind: 'emoji', name: e.name },
    label: `:${e.name}:`,
    glyph: e.kind === 'unicode_emoji' ? emojiGlyph(e.code) : undefined,
    imageUrl: e.imageUrl,
  }));
}

/** People, ambiguous names, groups and channels, indexed once per change, not per keystroke. */
function useMentionables() {
  const usersById = useUsersById();
  const muted = useMutedUsers();
  const groupsState = useUserGroupsState();
  const subscriptions = useSubscriptionsById();
  const streams = useStreamsById();

  const users = useMemo(() => Object.values(usersById), [usersById]);
  const people = useMemo(
    () => new PeopleIndex(users, new Set(Object.keys(muted).map(Number))),
    [users, muted],
  );
  const ambiguous = useMemo(() => ambiguousNames(users), [users]);
  const groups = useMemo(() => namedUserGroups(groupsState), [groupsState]);
  const channels = useMemo(() => {
    const subscribed = Object.values(subscriptions);
    const others = Object.values(streams).filter((s) => !(s.stream_id in subscriptions));
    return [...subscribed, ...others];
  }, [subscriptions, streams]);
  return { usersById, groupsState, subscriptions, people, ambiguous, groups, channels };
}

/** The emoji to search, loaded only once an emoji is being typed. */
function useEmojiSet(wanted: boolean): EmojiSet | null {
  const realmEmoji = useRealmEmojiById();
  const unicode = useUnicodeEmoji(wanted);
  return useMemo(
    () => (unicode ? buildEmojiSet(unicode, customEmoji(realmEmoji)) : null),
    [unicode, realmEmoji],
  );
}

export function useMessageTypeahead(token: TypeaheadToken | null, place: ComposePlace) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  const ownUserId = useOwnUserId();
  const realm = useRealmLimits();
  const { usersById, groupsState, subscriptions, people, ambiguous, groups, channels } =
    useMentionables();
  const emojiSet = useEmojiSet(token?.kind === 'emoji');

  const topicChannel =
    token?.kind === 'topic'
      ? channels.find((s) => s.name.toLowerCase() === token.channel.trim().toLowerCase())
      : undefined;
  const topics = useQuery({
    ...streamTopicsQuery(connection, topicChannel?.stream_id ?? -1),
    enabled: topicChannel !== undefined,
  });

  // The wildcard rule needs the sender's own record and the channel's size; both change rarely.
  const placeRef = useRef(place);
  placeRef.current = place;

  return useMemo((): TypeaheadItem[] => {
    if (!token) return [];
    switch (token.kind) {
      case 'mention':
        return mentionItems(token, {
          place: placeRef.current,
          queryClient,
          people,
          groups,
          ambiguous,
          subscriptions,
          own: usersById[ownUserId],
          realmSettings: realm.settings,
          groupsState,
        });
      case 'channel':
        return channelItems(channels, token.query, subscriptions);
      case 'topic':
        if (!topicChannel) return [];
        return topicItems(
          topicChannel,
          (topics.data ?? []).map((t) => t.name),
          token.query,
        );
      case 'emoji':
        return emojiSet ? emojiItems(emojiSet, token.query) : [];
    }
  }, [
    token,
    queryClient,
    people,
    groups,
    ambiguous,
    channels,
    subscriptions,
    usersById,
    ownUserId,
    realm.settings,
    groupsState,
    topicChannel,
    topics.data,
    emojiSet,
  ]);
}
