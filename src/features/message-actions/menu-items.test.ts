import { describe, expect, it } from 'vitest';
import { eg } from '../../test/eg';
import { describeVersion } from './history';
import { menuItems, type MenuContext } from './menu-items';

const ME = eg.selfUser.user_id;
const context: MenuContext = {
  ownUserId: ME,
  canEdit: false,
  canDelete: false,
  allowEditHistory: true,
  readReceipts: true,
};
const ids = (groups: ReturnType<typeof menuItems>) => groups.flat().map((item) => item.id);

describe('menuItems', () => {
  it('offers everything that applies to someone else’s message, in groups', () => {
    const message = eg.streamMessage({ sender_id: eg.otherUser.user_id, flags: ['read'] });
    const groups = menuItems(message, context);
    expect(groups.map((group) => group.map((item) => item.id))).toEqual([
      ['react', 'quote', 'reply', 'reply-privately'],
      ['star', 'mark-unread', 'collapse'],
      ['copy-link', 'read-receipts', 'source'],
    ]);
  });

  it('offers editing and deleting only when allowed, and no private reply to oneself', () => {
    const message = eg.streamMessage({ sender_id: ME, flags: ['read'] });
    const all = ids(menuItems(message, { ...context, canEdit: true, canDelete: true }));
    expect(all).toContain('edit');
    expect(all).toContain('delete');
    expect(all).not.toContain('reply-privately');
    expect(ids(menuItems(message, context))).not.toContain('edit');
  });

  it('offers moving the message only where the move policies allow it', () => {
    const message = eg.streamMessage({ sender_id: ME, flags: ['read'] });
    expect(ids(menuItems(message, { ...context, canMove: true }))).toContain('move');
    expect(ids(menuItems(message, context))).not.toContain('move');
  });

  it('shows the edit history only for an edited message, when the organization allows it', () => {
    const plain = eg.streamMessage({ flags: ['read'] });
    const edited = eg.streamMessage({ flags: ['read'], last_edit_timestamp: 1_700_000_000 });
    expect(ids(menuItems(plain, context))).not.toContain('edit-history');
    expect(ids(menuItems(edited, context))).toContain('edit-history');
    expect(ids(menuItems(edited, { ...context, allowEditHistory: false }))).not.toContain(
      'edit-history',
    );
  });

  it('hides read receipts when the organization turned them off', () => {
    const message = eg.streamMessage({ flags: ['read'] });
    expect(ids(menuItems(message, { ...context, readReceipts: false }))).not.toContain(
      'read-receipts',
    );
  });

  it('names star and collapse by what they would do', () => {
    const message = eg.streamMessage({ flags: ['read', 'starred', 'collapsed'] });
    const labels = menuItems(message, context)
      .flat()
      .map((item) => item.label);
    expect(labels).toContain('Unstar message');
    expect(labels).toContain('Expand message');
  });
});

describe('describeVersion', () => {
  const base = {
    user_id: 8,
    timestamp: 1,
    topic: 'lunch',
    content: 'b',
    rendered_content: '<p>b</p>',
  };

  it('calls the first version posted', () => {
    expect(describeVersion(base, true)).toMatchObject({ verb: 'Posted by', contentEdited: false });
  });

  it('tells a content edit from a move, and says where the topic and channel went', () => {
    expect(describeVersion({ ...base, prev_content: 'a' }, false)).toMatchObject({
      verb: 'Edited by',
      contentEdited: true,
      topicChange: null,
    });
    expect(
      describeVersion({ ...base, prev_topic: 'breakfast', prev_stream: 3, stream: 5 }, false),
    ).toEqual({
      verb: 'Moved by',
      contentEdited: false,
      topicChange: { from: 'breakfast', to: 'lunch' },
      streamChange: { from: 3, to: 5 },
    });
  });
});
