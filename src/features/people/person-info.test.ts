import { describe, expect, it } from 'vitest';
import type { CustomProfileField } from '../../api/model';
import { eg } from '../../test/eg';
import {
  activityText,
  externalAccountUrl,
  fieldDisplay,
  localTime,
  roleKey,
  safeHttpUrl,
  visibleEmail,
} from './person-info';

const field = (type: CustomProfileField['type'], field_data = ''): CustomProfileField => ({
  id: 1,
  type,
  order: 1,
  name: 'Field',
  hint: '',
  field_data,
});

describe('what a profile shows', () => {
  it('names roles, bots first', () => {
    expect(roleKey(eg.user({ role: 100 }))).toBe('owner');
    expect(roleKey(eg.user({ role: 200 }))).toBe('admin');
    expect(roleKey(eg.user({ role: 300 }))).toBe('moderator');
    expect(roleKey(eg.user({ role: 400 }))).toBe('member');
    expect(roleKey(eg.user({ role: 600 }))).toBe('guest');
    expect(roleKey(eg.user({ role: 400, is_bot: true }))).toBe('bot');
  });

  it('shows the real address when given, never the made-up one', () => {
    expect(visibleEmail(eg.user({ email: 'user12@x.org', delivery_email: 'ann@x.org' }))).toBe(
      'ann@x.org',
    );
    expect(visibleEmail(eg.user({ email: 'user12@x.org', delivery_email: null }))).toBeNull();
    expect(visibleEmail(eg.user({ email: 'ann@x.org', delivery_email: null }))).toBe('ann@x.org');
  });

  it('gives the local time in the person’s zone, and nothing for a zone that does not exist', () => {
    const noonUtc = new Date(Date.UTC(2026, 0, 5, 12, 0));
    expect(localTime('Asia/Kolkata', noonUtc, false)).toContain('17:30');
    expect(localTime('Not/AZone', noonUtc)).toBeNull();
    expect(localTime('', noonUtc)).toBeNull();
  });

  it('says how long ago someone was active', () => {
    expect(activityText('active', 0, 1000)).toBe('Active now');
    expect(activityText('offline', 0, 1000)).toBe('Not active yet');
    expect(activityText('offline', 1000, 1000 + 3 * 3600)).toBe('Active 3 hours ago');
  });

  it('links only web addresses', () => {
    expect(safeHttpUrl('https://a.example/')).toBe('https://a.example/');
    expect(safeHttpUrl('javascript:alert(1)')).toBeNull();
    expect(fieldDisplay(field(5), { value: 'javascript:alert(1)' })).toEqual({
      kind: 'text',
      text: 'javascript:alert(1)',
    });
  });

  it('builds external account links from the pattern, escaping the name', () => {
    expect(externalAccountUrl(field(7, '{"subtype":"github"}'), 'ann')).toBe(
      'https://github.com/ann',
    );
    expect(
      externalAccountUrl(
        field(7, '{"subtype":"custom","url_pattern":"https://x.example/u/%(username)s"}'),
        'a b/c',
      ),
    ).toBe('https://x.example/u/a%20b%2Fc');
  });

  it('shows each field type its own way', () => {
    const choice = field(3, '{"a":{"text":"Apple","order":"1"}}');
    expect(fieldDisplay(choice, { value: 'a' })).toEqual({ kind: 'text', text: 'Apple' });
    expect(fieldDisplay(field(2), { value: '**x**', rendered_value: '<p><b>x</b></p>' })).toEqual({
      kind: 'html',
      html: '<p><b>x</b></p>',
    });
    expect(fieldDisplay(field(4), { value: '2000-03-14' })).toEqual({
      kind: 'text',
      text: 'March 14, 2000',
    });
    expect(fieldDisplay(field(6), { value: '[4,5]' })).toEqual({ kind: 'people', userIds: [4, 5] });
    expect(fieldDisplay(field(8), { value: 'she/her' })).toEqual({ kind: 'text', text: 'she/her' });
    expect(fieldDisplay(field(1), { value: '' })).toBeNull();
  });
});
