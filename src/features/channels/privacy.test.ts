import { describe, expect, it } from 'vitest';
import {
  allowedPrivacies,
  mayAddSubscribers,
  mayAdministerChannels,
  mayChangeRetention,
  normalColor,
  privacyOf,
  privacyParams,
  PRIVACIES,
  retentionChoice,
} from './privacy';

describe('channel privacy', () => {
  it('turns each choice into wire flags and back', () => {
    for (const privacy of PRIVACIES) expect(privacyOf(privacyParams(privacy))).toBe(privacy);
    expect(privacyParams('private-protected')).toEqual({
      invite_only: true,
      is_web_public: false,
      history_public_to_subscribers: false,
    });
    expect(privacyParams('public').history_public_to_subscribers).toBe(true);
  });

  it('offers web-public channels only with spectator access and the policy allowing it', () => {
    const settings = {
      enable_spectator_access: false,
      create_public_stream_policy: 1,
      create_private_stream_policy: 2,
      create_web_public_stream_policy: 7,
    };
    expect(allowedPrivacies(settings, 400)).toEqual(['public']);
    expect(allowedPrivacies(settings, 200)).toEqual([
      'public',
      'private-shared',
      'private-protected',
    ]);
    expect(allowedPrivacies({ ...settings, enable_spectator_access: true }, 100)).toContain(
      'web-public',
    );
    expect(allowedPrivacies({ ...settings, enable_spectator_access: true }, 200)).not.toContain(
      'web-public',
    );
  });
});

describe('who may change what', () => {
  it('lets administrators administer channels and only owners change retention', () => {
    expect([100, 200, 300, 400, 600].map(mayAdministerChannels)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect([100, 200].map(mayChangeRetention)).toEqual([true, false]);
    expect(mayAdministerChannels(undefined)).toBe(false);
  });

  it('follows the invite-to-channel policy for adding people', () => {
    expect(mayAddSubscribers({ invite_to_stream_policy: 1 }, 400)).toBe(true);
    expect(mayAddSubscribers({ invite_to_stream_policy: 1 }, 600)).toBe(false);
    expect(mayAddSubscribers({ invite_to_stream_policy: 2 }, 400)).toBe(false);
    expect(mayAddSubscribers({ invite_to_stream_policy: 2 }, 200)).toBe(true);
  });
});

describe('stored values shown in controls', () => {
  it('reads retention: null follows the organization, -1 keeps forever', () => {
    expect(retentionChoice(null)).toBe('realm_default');
    expect(retentionChoice(-1)).toBe('unlimited');
    expect(retentionChoice(30)).toBe('days');
  });

  it('gives the colour input six-digit lower-case colours', () => {
    expect(normalColor('#ABC')).toBe('#aabbcc');
    expect(normalColor('#76CE90')).toBe('#76ce90');
    expect(normalColor('teal')).toBe('#76ce90');
  });
});
