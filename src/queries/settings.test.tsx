import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorText } from '../api/errors';
import { fakeSession } from '../test/fake-session';
import { useChangePassword, useMuteUser, useUpdateSettings } from './settings';

describe('useUpdateSettings', () => {
  it('sends the one changed setting and offers its value while the save is in flight', async () => {
    const { fake, wrapper } = fakeSession();
    let answer: (response: Response) => void = () => {};
    fake.respondWith(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { result } = renderHook(() => useUpdateSettings(), { wrapper });

    act(() => result.current.mutate({ twenty_four_hour_time: true }));
    await waitFor(() => expect(result.current.isPending).toBe(true));
    expect(result.current.variables).toEqual({ twenty_four_hour_time: true });
    answer(new Response(JSON.stringify({ result: 'success', msg: '' }), { status: 200 }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(fake.last.method).toBe('PATCH');
    expect(fake.last.path).toBe('/api/v1/settings');
    expect(fake.last.body.get('twenty_four_hour_time')).toBe('true');
  });

  it("carries the server's reason when it refuses", async () => {
    const { fake, wrapper } = fakeSession();
    fake.respondError('BAD_REQUEST', 'Name too long!');
    const { result } = renderHook(() => useUpdateSettings(), { wrapper });

    act(() => result.current.mutate({ full_name: 'x'.repeat(61) }));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(errorText(result.current.error)).toBe('Name too long!');
  });
});

describe('useChangePassword', () => {
  it('sends both passwords under their wire names', async () => {
    const { fake, wrapper } = fakeSession();
    fake.respond({});
    const { result } = renderHook(() => useChangePassword(), { wrapper });

    act(() => result.current.mutate({ oldPassword: 'old-one', newPassword: 'new-one' }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(fake.last.body.get('old_password')).toBe('old-one');
    expect(fake.last.body.get('new_password')).toBe('new-one');
  });
});

describe('useMuteUser', () => {
  it('mutes and unmutes through the muted-users endpoint', async () => {
    const { fake, wrapper } = fakeSession();
    fake.respond({}).respond({});
    const { result } = renderHook(() => useMuteUser(), { wrapper });

    act(() => result.current.mutate({ userId: 2, muted: true }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(fake.last.method).toBe('POST');
    expect(fake.last.path).toBe('/api/v1/users/me/muted_users/2');
    act(() => result.current.mutate({ userId: 2, muted: false }));
    await waitFor(() => expect(fake.requests).toHaveLength(2));
    expect(fake.last.method).toBe('DELETE');
  });
});
