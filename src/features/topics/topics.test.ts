import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../api/errors';
import type { UpdateMessageEvent } from '../../api/model';
import { ROLE } from '../../api/model/user';
import type { UserGroupsState } from '../../model/user-groups';
import { eg } from '../../test/eg';
import { urlAfterMove } from './follow-move';
import { describeMoveFailure } from './move-error';
import { messageMovePermissions, topicPermissions } from './permissions';
import { mayPostTo } from './posting';
import { isResolved, resolvedName, unresolvedName } from './resolved';

const noGroups: UserGroupsState = { byId: {} };
const group = (id: number, members: number[], direct_subgroup_ids: number[]) => ({
  id,
  name: `group ${id}`,
  description: '',
  members,
  direct_subgroup_ids,
  is_system_group: false,
});
const member = { userId: 8, role: ROLE.MEMBER, groups: noGroups };
const moderator = { userId: 9, role: ROLE.MODERATOR, groups: noGroups };
const guest = { userId: 10, role: ROLE.GUEST, groups: noGroups };

describe('resolved topics', () => {
  it('adds and removes the check mark once', () => {
    expect(resolvedName('lunch')).toBe('✔ lunch');
    expect(resolvedName('✔ lunch')).toBe('✔ lunch');
    expect(unresolvedName('✔ ✔ lunch')).toBe('lunch');
    expect(isResolved('✔lunch')).toBe(false);
  });
});

describe('topic permissions', () => {
  it('follows the integer policies: everyone, members, moderators, nobody', () => {
    const settings = { edit_topic_policy: 5, move_messages_between_streams_policy: 4 };
    expect(topicPermissions(settings, guest)).toEqual({
      editTopic: true,
      resolve: true,
      moveBetweenChannels: false,
    });
    expect(topicPermissions(settings, moderator).moveBetweenChannels).toBe(true);
    expect(topicPermissions({ edit_topic_policy: 1 }, guest).editTopic).toBe(false);
    expect(topicPermissions({ edit_topic_policy: 6 }, moderator).editTopic).toBe(false);
  });

  it('prefers group settings when the server sends them', () => {
    const groups: UserGroupsState = {
      byId: {
        1: group(1, [], [2]),
        2: group(2, [8], []),
      },
    };
    const actor = { ...member, groups };
    const settings = {
      edit_topic_policy: 6,
      can_move_messages_between_topics_group: 1,
      can_move_messages_between_channels_group: { direct_members: [], direct_subgroups: [2] },
      can_resolve_topics_group: { direct_members: [99], direct_subgroups: [] },
    };
    expect(topicPermissions(settings, actor)).toEqual({
      editTopic: true,
      resolve: false,
      moveBetweenChannels: true,
    });
  });

  it('applies the time limits to members, not to moderators', () => {
    const now = 100_000;
    const message = eg.streamMessage({ timestamp: now - 120 });
    const settings = {
      edit_topic_policy: 5,
      move_messages_between_streams_policy: 1,
      move_messages_within_stream_limit_seconds: 60,
      move_messages_between_streams_limit_seconds: null,
    };
    expect(messageMovePermissions(message, settings, member, now)).toEqual({
      topic: false,
      channel: true,
    });
    expect(messageMovePermissions(message, settings, moderator, now)).toEqual({
      topic: true,
      channel: true,
    });
    expect(messageMovePermissions(eg.dmMessage(), settings, moderator, now)).toEqual({
      topic: false,
      channel: false,
    });
  });

  it('offers only channels one may post to', () => {
    expect(mayPostTo({ stream_post_policy: 2 }, ROLE.MEMBER)).toBe(false);
    expect(mayPostTo({ stream_post_policy: 2 }, ROLE.ADMINISTRATOR)).toBe(true);
    expect(mayPostTo({ stream_post_policy: 1, is_archived: true }, ROLE.OWNER)).toBe(false);
  });
});

describe('describeMoveFailure', () => {
  const limit = (extra: Record<string, unknown>) =>
    new ApiRequestError({
      kind: 'api',
      status: 400,
      code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      msg: 'You only have permission to move the 3/10 most recent messages in this topic.',
      extra,
    });

  it('explains a partial permission with its counts and the first message that may move', () => {
    expect(
      describeMoveFailure(
        limit({
          total_messages_in_topic: 10,
          total_messages_allowed_to_move: 3,
          first_message_id_allowed_to_move: 42,
        }),
      ),
    ).toMatchObject({
      kind: 'time-limit',
      firstAllowedId: 42,
      allowed: 3,
      text: expect.stringMatching(
        /^Only 3 of 10 messages can be moved: the others are older than the time limit/,
      ),
    });
  });

  it('says nothing can move when the server names no first message', () => {
    const failure = describeMoveFailure(
      limit({
        total_messages_in_topic: 4,
        total_messages_allowed_to_move: 0,
        first_message_id_allowed_to_move: null,
      }),
    );
    expect(failure).toMatchObject({ kind: 'time-limit', firstAllowedId: null });
    expect(failure.text).toMatch(/^None of the 4 messages can be moved/);
  });

  it('puts any other refusal in words', () => {
    const other = new ApiRequestError({
      kind: 'api',
      status: 400,
      code: 'BAD_REQUEST',
      msg: "You don't have permission to move this message",
      extra: {},
    });
    expect(describeMoveFailure(other)).toEqual({
      kind: 'other',
      text: "You don't have permission to move this message",
    });
    expect(describeMoveFailure(new Error('x')).text).toBe('The messages could not be moved.');
  });
});

describe('urlAfterMove', () => {
  const none = () => null;
  const names = (id: number) => ({ 5: 'general', 6: 'design team' })[id];
  const event = (extra: Partial<UpdateMessageEvent>): UpdateMessageEvent => ({
    type: 'update_message',
    id: 1,
    user_id: 9,
    message_id: 42,
    message_ids: [41, 42],
    edit_timestamp: 1,
    rendering_only: false,
    stream_id: 5,
    orig_subject: 'lunch',
    subject: 'food',
    propagate_mode: 'change_all',
    ...extra,
  });

  it('follows a whole topic renamed or moved to another channel', () => {
    const path = '/narrow/channel/5-general/topic/lunch';
    expect(urlAfterMove(path, event({}), none, names)).toBe('/narrow/channel/5-general/topic/food');
    expect(urlAfterMove(path, event({ subject: undefined, new_stream_id: 6 }), none, names)).toBe(
      '/narrow/channel/6-design-team/topic/lunch',
    );
  });

  it('keeps a near link on its message', () => {
    expect(
      urlAfterMove('/narrow/channel/5-general/topic/lunch/near/42', event({}), none, names),
    ).toBe('/narrow/channel/5-general/topic/food/near/42');
  });

  it('follows the later part of a topic unless the message being looked at stayed behind', () => {
    const path = '/narrow/channel/5-general/topic/lunch';
    const later = event({ propagate_mode: 'change_later' });
    expect(urlAfterMove(path, later, none, names)).toBe('/narrow/channel/5-general/topic/food');
    expect(urlAfterMove(path, later, () => 7, names)).toBeNull();
    expect(urlAfterMove(`${path}/near/7`, later, none, names)).toBeNull();
    expect(urlAfterMove(path, later, (n) => (n.kind === 'topic' ? 41 : null), names)).toBe(
      '/narrow/channel/5-general/topic/food',
    );
    expect(urlAfterMove(path, event({ propagate_mode: 'change_one' }), none, names)).toBeNull();
  });

  it('stays for other topics, other views, and content edits', () => {
    expect(
      urlAfterMove('/narrow/channel/5-general/topic/dinner', event({}), none, names),
    ).toBeNull();
    expect(urlAfterMove('/narrow/channel/6-x/topic/lunch', event({}), none, names)).toBeNull();
    expect(urlAfterMove('/inbox', event({}), none, names)).toBeNull();
    expect(
      urlAfterMove(
        '/narrow/channel/5-general/topic/lunch',
        event({ subject: undefined, orig_subject: undefined, propagate_mode: undefined }),
        none,
        names,
      ),
    ).toBeNull();
  });

  it('matches topics case-insensitively, as the server does', () => {
    expect(urlAfterMove('/narrow/channel/5-general/topic/Lunch', event({}), none, names)).toBe(
      '/narrow/channel/5-general/topic/food',
    );
  });
});
