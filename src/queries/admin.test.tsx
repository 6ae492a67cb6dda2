import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorText } from '../api/errors';
import { fakeSession } from '../test/fake-session';
import { inviteKeys, useCreateInviteLink, useDeactivateUser, useRevokeInvite } from './admin';

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

describe('useRevokeInvite', () => {
  it('removes the invitation from the list at once and puts it back when refused', async () => {
    const { fake, wrapper, queryClient } = fakeSession();
    const invite = {
      id: 4,
      invited_by_user_id: 1,
      invited: 0,
      expiry_date: null,
      invited_as: 400,
      is_multiuse: false,
      email: 'a@example.com',
    };
    queryClient.setQueryData(inviteKeys.all, [invite]);
    fake.respondError('BAD_REQUEST', 'Invitation has already been revoked');
    fake.respond({ invites: [invite] });
    const { result } = renderHook(() => useRevokeInvite(), { wrapper });

    act(() => result.current.mutate(invite));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(fake.requests[0].method).toBe('DELETE');
    expect(fake.requests[0].path).toBe('/api/v1/invites/4');
    expect(queryClient.getQueryData(inviteKeys.all)).toEqual([invite]);
  });
});
