import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorText } from '../api/errors';
import { fakeSession } from '../test/fake-session';
import { useCreateInviteLink, useDeactivateUser } from './admin';

describe('useCreateInviteLink', () => {
  it('asks for a link with the chosen role and expiry and returns it', async () => {
    const { fake, wrapper } = fakeSession();
    fake.respond({ invite_link: 'http://parley.test/join/abc/' });
    const { result } = renderHook(() => useCreateInviteLink(), { wrapper });

    act(() => result.current.mutate({ role: 600, expiresInMinutes: 1440 }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data?.invite_link).toBe('http://parley.test/join/abc/');
    expect(fake.last.path).toBe('/api/v1/invites/multiuse');
    expect(fake.last.body.get('invite_as')).toBe('600');
    expect(fake.last.body.get('invite_expires_in_minutes')).toBe('1440');
    expect(fake.last.body.get('include_realm_default_subscriptions')).toBe('true');
  });
});

describe('useDeactivateUser', () => {
  it('deactivates by user id', async () => {
    const { fake, wrapper } = fakeSession();
    fake.respond({});
    const { result } = renderHook(() => useDeactivateUser(), { wrapper });

    act(() => result.current.mutate(2));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(fake.last.method).toBe('DELETE');
    expect(fake.last.path).toBe('/api/v1/users/2');
  });

  it("carries the server's reason when it refuses", async () => {
    const { fake, wrapper } = fakeSession();
    fake.respondError('BAD_REQUEST', 'Cannot deactivate the only organization owner');
    const { result } = renderHook(() => useDeactivateUser(), { wrapper });

    act(() => result.current.mutate(2));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(errorText(result.current.error)).toBe('Cannot deactivate the only organization owner');
  });
});
