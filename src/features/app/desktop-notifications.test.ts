import { describe, expect, it } from 'vitest';
import { accountStateFromSnapshot } from '../../model/account-state';
import { eg } from '../../test/eg';
import { notificationBody, notificationTitle, shouldNotify } from './desktop-notifications';

const state = (overrides: Parameters<typeof eg.registerResponse>[0] = {}) =>
  accountStateFromSnapshot(eg.registerResponse(overrides));

describe('desktop notifications', () => {
  const stream = eg.streamMessage({ subject: 'lunch' });
  const dm = eg.dmMessage();

  it('speak for direct messages and mentions, not for other channel messages or your own', () => {
    const s = state();
    expect(shouldNotify(dm, [], s)).toBe(true);
    expect(shouldNotify(stream, ['mentioned'], s)).toBe(true);
    expect(shouldNotify(stream, ['wildcard_mentioned'], s)).toBe(true);
    expect(shouldNotify(stream, [], s)).toBe(false);
    expect(shouldNotify(eg.dmMessage({ from: eg.selfUser, to: [eg.otherUser] }), [], s)).toBe(
      false,
    );
    expect(shouldNotify(dm, ['read'], s)).toBe(false);
  });

  it('stay quiet when turned off, for muted people, and for wildcards in muted topics', () => {
    const off = state({
      user_settings: {
        ...eg.registerResponse().user_settings,
        enable_desktop_notifications: false,
      },
    });
    expect(shouldNotify(dm, [], off)).toBe(false);
    const muted = state({ muted_users: [{ id: eg.otherUser.user_id, timestamp: 1 }] } as never);
    expect(shouldNotify(dm, [], muted)).toBe(false);
    const quietTopic = state({
      user_topics: [
        { stream_id: stream.stream_id, topic_name: 'lunch', last_updated: 1, visibility_policy: 1 },
      ],
    } as never);
    expect(shouldNotify(stream, ['wildcard_mentioned'], quietTopic)).toBe(false);
    expect(shouldNotify(stream, ['mentioned'], quietTopic)).toBe(true);
  });

  it('show the message as short plain text, with who and where in the title', () => {
    expect(notificationBody('<p>Hello <strong>there</strong></p>\n<p>second</p>')).toBe(
      'Hello there second',
    );
    expect(notificationBody(`<p>${'x'.repeat(300)}</p>`)).toHaveLength(200);
    expect(notificationBody('<p>&lt;script&gt;</p>')).toBe('<script>');
    expect(notificationTitle(stream)).toBe(
      `${stream.sender_full_name} (#${stream.display_recipient} > lunch)`,
    );
    expect(notificationTitle(dm)).toBe(dm.sender_full_name);
  });
});
