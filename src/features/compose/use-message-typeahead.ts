/** The suggestions for the token being typed in the message field, from the live model. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
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
import { namedUserGroups } from '../../model/user-groups';
import { allMessages, messageKeys, type MessageListData } from '../../queries/messages';
import { streamTopicsQuery } from '../../queries/topics';
import { useConnection } from '../../model/session-context';
import {
  buildEmojiSet,
  customEmoji,
  emojiGlyph,
  searchEmoji,
  useUnicodeEmoji,
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

export function useMessageTypeahead(token: TypeaheadToken | null, place: ComposePlace) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  const usersById = useUsersById();
  const muted = useMutedUsers();
  const ownUserId = useOwnUserId();
  const groupsState = useUserGroupsState();
  const realm = useRealmLimits();
  const realmEmoji = useRealmEmojiById();
  const subscriptions = useSubscriptionsById();
  const streams = useStreamsById();

  const users = useMemo(() => Object.values(usersById), [usersById]);
  // Built once per change of the people list, not per keystroke.
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

  const unicode = useUnicodeEmoji(token?.kind === 'emoji');
  const emojiSet = useMemo(
    () => (unicode ? buildEmojiSet(unicode, customEmoji(realmEmoji)) : null),
    [unicode, realmEmoji],
  );

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
      case 'mention': {
        const here = placeRef.current;
        const list = queryClient.getQueryData<MessageListData>(messageKeys.list(here.narrow));
        const recent = recentSenders(allMessages(list), here);
        const subscriberIds =
          here.mode === 'stream' && here.streamId !== null
            ? subscriptions[here.streamId]?.subscribers
            : undefined;
        const own = usersById[ownUserId];
        const wildcards = wildcardsFor({
          direct: here.mode === 'direct',
          mayMentionMany: own ? mayMentionManyUsers(realm.settings, own, groupsState) : false,
          subscriberCount: subscriberIds?.length ?? null,
          topicParticipantCount: here.topic ? recent.length : Infinity,
        });
        return mentionSuggestions(
          {
            people,
            context: {
              recentSenderIds: recent,
              subscriberIds: subscriberIds ? new Set(subscriberIds) : null,
            },
            groups,
            wildcards,
            ambiguous,
          },
          token.query,
          token.silent,
          LIMIT,
        );
      }
      case 'channel': {
        const { prefix, contains } = rankByName(channels, token.query, (s) => s.name);
        return [...prefix, ...contains].slice(0, LIMIT).map((s) => ({
          key: `channel-${s.stream_id}`,
          completion: { kind: 'channel', name: s.name },
          label: s.name,
          detail: s.stream_id in subscriptions ? undefined : i18n.t('compose:notSubscribedShort'),
        }));
      }
      case 'topic': {
        if (!topicChannel) return [];
        const names = (topics.data ?? []).map((t) => t.name);
        const { prefix, contains } = rankByName(names, token.query, (t) => t);
        const typed = token.query.trim();
        // A new topic can be linked too: offer what was typed when nothing matches it exactly.
        const all = [...prefix, ...contains];
        if (typed && !all.some((t) => t.toLowerCase() === typed.toLowerCase())) all.push(typed);
        return all.slice(0, LIMIT).map((t) => ({
          key: `topic-${t}`,
          completion: { kind: 'topic', channel: topicChannel.name, topic: t },
          label: t,
          detail: topicChannel.name,
        }));
      }
      case 'emoji': {
        if (!emojiSet) return [];
        return searchEmoji(emojiSet, token.query, LIMIT).map((e) => ({
          key: `emoji-${e.kind}-${e.code}`,
          completion: { kind: 'emoji', name: e.name },
          label: `:${e.name}:`,
          glyph: e.kind === 'unicode_emoji' ? emojiGlyph(e.code) : undefined,
          imageUrl: e.imageUrl,
        }));
      }
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
