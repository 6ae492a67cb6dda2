import { describe, expect, it } from 'vitest';
import type { Message } from '../../api/model';
import { canDelete, canEditContent, policyAllows } from './permissions';

const NOW = 1_800_000_000;
const message = (senderId: number, age: number) =>
  ({ id: 1, sender_id: senderId, timestamp: NOW - age }) as Message;
const member = { userId: 7, role: 400 };
const admin = { userId: 8, role: 200 };
const guest = { userId: 9, role: 600 };

describe('message permissions', () => {
  it('reads the integer policies as the API defines them', () => {
    expect([1, 2, 3, 4, 5].map((p) => policyAllows(p, 400))).toEqual([
      true,
      false,
      true,
      false,
      true,
    ]);
    expect([1, 2, 3, 4, 5].map((p) => policyAllows(p, 300))).toEqual([
      true,
      false,
      true,
      true,
      true,
    ]);
    expect([1, 2, 5].map((p) => policyAllows(p, 600))).toEqual([false, false, true]);
  });

  it('lets no one through "nobody" (6) or a policy it does not know, and only owners through 7', () => {
    expect([100, 200, 300, 400].map((role) => policyAllows(6, role))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect([100, 200].map((role) => policyAllows(7, role))).toEqual([true, false]);
    expect(policyAllows(99, 100)).toBe(false);
    expect([200, 300].map((role) => policyAllows(undefined, role))).toEqual([true, false]);
  });

  it('offers editing only to the sender, while editing is on and within the limit', () => {
    const settings = { allow_message_editing: true, message_content_edit_limit_seconds: 600 };
    expect(canEditContent(message(7, 60), member, settings, NOW)).toBe(true);
    expect(canEditContent(message(7, 601), member, settings, NOW)).toBe(false);
    expect(
      canEditContent(
        message(7, 601),
        member,
        { ...settings, message_content_edit_limit_seconds: null },
        NOW,
      ),
    ).toBe(true);
    expect(
      canEditContent(message(7, 60), member, { ...settings, allow_message_editing: false }, NOW),
    ).toBe(false);
    expect(canEditContent(message(8, 60), member, settings, NOW)).toBe(false);
    expect(canEditContent(message(7, 60), admin, settings, NOW)).toBe(false); // admins edit only their own content
  });

  it('offers deleting to administrators always and to senders by policy and limit', () => {
    const settings = { delete_own_message_policy: 1, message_content_delete_limit_seconds: 600 };
    expect(canDelete(message(7, 60), admin, settings, NOW)).toBe(true);
    expect(canDelete(message(7, 6000), admin, settings, NOW)).toBe(true);
    expect(canDelete(message(7, 60), member, settings, NOW)).toBe(true);
    expect(canDelete(message(7, 6000), member, settings, NOW)).toBe(false);
    expect(canDelete(message(8, 60), member, settings, NOW)).toBe(false);
    expect(
      canDelete(message(7, 60), member, { ...settings, delete_own_message_policy: 2 }, NOW),
    ).toBe(false);
    expect(canDelete(message(9, 60), guest, settings, NOW)).toBe(false);
    expect(
      canDelete(message(9, 60), guest, { ...settings, delete_own_message_policy: 5 }, NOW),
    ).toBe(true);
  });
});
