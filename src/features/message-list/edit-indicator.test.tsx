import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EditHistoryEntry, Message } from '../../api/model';
import { parseEvent } from '../../api/parse-event';
import { streamNarrow } from '../../narrow';
import { applyEventToMessageList } from '../../queries/apply-event';
import { firstPageParam, type MessageListData } from '../../queries/messages';
import { eg } from '../../test/eg';
import { editIndicator } from './edit-indicator';
import { EditMark } from './EditMark';

const contentEdit: EditHistoryEntry = {
  user_id: 1,
  timestamp: 100,
  prev_content: 'frist',
  prev_rendered_content: '<p>frist</p>',
};
const rename: EditHistoryEntry = { user_id: 2, timestamp: 200, prev_topic: 'lunch', topic: 'food' };

describe('editIndicator', () => {
  it('says nothing of a message never edited or moved', () => {
    expect(editIndicator({})).toBeNull();
  });

  it('says "edited" when any entry changed the content, even under a later move', () => {
    expect(
      editIndicator({ last_edit_timestamp: 200, edit_history: [rename, contentEdit] }),
    ).toEqual({ kind: 'edited', timestamp: 100 });
  });

  it('says "moved" when only the topic or the channel changed', () => {
    expect(editIndicator({ last_edit_timestamp: 200, edit_history: [rename] })).toEqual({
      kind: 'moved',
      timestamp: 200,
    });
    const channel = { user_id: 2, timestamp: 300, prev_stream: 5, stream: 6 };
    expect(editIndicator({ last_edit_timestamp: 300, edit_history: [channel] })?.kind).toBe(
      'moved',
    );
  });

  it('counts resolving or unresolving a topic as neither', () => {
    const resolve = { user_id: 2, timestamp: 300, prev_topic: 'lunch', topic: '✔ lunch' };
    const unresolve = { user_id: 2, timestamp: 400, prev_topic: '✔ lunch', topic: 'lunch' };
    expect(editIndicator({ last_edit_timestamp: 400, edit_history: [unresolve, resolve] })).toBe(
      null,
    );
    expect(editIndicator({ last_edit_timestamp: 400, edit_history: [resolve, rename] })).toEqual({
      kind: 'moved',
      timestamp: 200,
    });
  });

  it('falls back to "edited" from last_edit_timestamp without an edit history', () => {
    expect(editIndicator({ last_edit_timestamp: 50 })).toEqual({ kind: 'edited', timestamp: 50 });
  });
});

describe('the edit mark after a message', () => {
  it('reads "(moved)" with the time in its title', () => {
    const message = eg.streamMessage({ last_edit_timestamp: 200, edit_history: [rename] });
    render(<EditMark message={message} />);
    const mark = screen.getByText('(moved)');
    expect(mark.getAttribute('title')).toMatch(/^Moved /);
    expect(screen.queryByText('(edited)')).toBeNull();
  });

  it('reads "(edited)" for a content edit', () => {
    const message = eg.streamMessage({ last_edit_timestamp: 100, edit_history: [contentEdit] });
    render(<EditMark message={message} />);
    expect(screen.getByText('(edited)').getAttribute('title')).toMatch(/^Edited /);
  });
});

describe('the indicator follows update_message events', () => {
  const listOf = (messages: Message[]): MessageListData => ({
    pages: [{ messages, foundOldest: true, foundNewest: true, anchor: messages[0].id }],
    pageParams: [firstPageParam],
  });
  const update = (extra: Record<string, unknown>) =>
    parseEvent({
      id: 1,
      type: 'update_message',
      user_id: 9,
      message_id: 10,
      message_ids: [10, 11],
      edit_timestamp: 500,
      rendering_only: false,
      ...extra,
    });
  const apply = (data: MessageListData, event: ReturnType<typeof update>) =>
    applyEventToMessageList(data, streamNarrow(5), event, eg.selfUser.user_id);
  const kinds = (data: MessageListData) =>
    data.pages[0].messages.map((m) => editIndicator(m)?.kind ?? null);
  const fresh = () =>
    listOf([
      eg.streamMessage({ id: 10, stream_id: 5, subject: 'lunch' }),
      eg.streamMessage({ id: 11, stream_id: 5, subject: 'lunch' }),
    ]);

  it('a topic rename marks every moved message "moved"', () => {
    const moved = apply(fresh(), update({ stream_id: 5, orig_subject: 'lunch', subject: 'food' }));
    expect(kinds(moved)).toEqual(['moved', 'moved']);
    expect(moved.pages[0].messages[1]).toMatchObject({
      last_edit_timestamp: 500,
      edit_history: [{ user_id: 9, timestamp: 500, prev_topic: 'lunch', topic: 'food' }],
    });
  });

  it('a content edit marks its message "edited", and a later move leaves it so', () => {
    const edited = apply(
      fresh(),
      update({
        message_ids: [10],
        rendered_content: '<p>new</p>',
        orig_content: 'old',
        orig_rendered_content: '<p>old</p>',
      }),
    );
    expect(kinds(edited)).toEqual(['edited', null]);
    const moved = apply(edited, update({ stream_id: 5, orig_subject: 'lunch', subject: 'food' }));
    expect(kinds(moved)).toEqual(['edited', 'moved']);
    expect(moved.pages[0].messages[0].edit_history).toHaveLength(2);
  });

  it('keeps "edited" for a message whose earlier history the organization hides', () => {
    const hidden = listOf([eg.streamMessage({ id: 10, stream_id: 5, last_edit_timestamp: 50 })]);
    const moved = apply(hidden, update({ stream_id: 5, orig_subject: 'lunch', subject: 'food' }));
    expect(moved.pages[0].messages[0]).not.toHaveProperty('edit_history');
    expect(moved.pages[0].messages[0].last_edit_timestamp).toBe(500);
    expect(kinds(moved)).toEqual(['edited']);
  });
});
