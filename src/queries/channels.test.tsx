import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorText } from '../api/errors';
import type { RecordedRequest } from '../test/fake-fetch';
import { fakeSession } from '../test/fake-session';
import {
  useChangeSubscribers,
  useCreateChannelWithSettings,
  useEditDefaultChannelGroup,
  useSetDefaultChannel,
  useSetSubscriptionProperty,
  useUpdateChannel,
} from './channels';

/** A parameter, wherever the method puts it (body, or query for GET and DELETE). */
const param = (request: RecordedRequest, name: string) =>
  request.body.get(name) ?? request.query.get(name);

describe('channel settings requests', () => {
  it('changes one personal property through subscription_data', async () => {
    const { fake, wrapper } = fakeSession();
    fake.respond({});
    const { result } = renderHook(() => useSetSubscriptionProperty(7), { wrapper });
    act(() => result.current.mutate({ property: 'pin_to_top', value: true }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(fake.last.path).toBe('/api/v1/users/me/subscriptions/properties');
    expect(JSON.parse(fake.last.body.get('subscription_data')!)).toEqual([
      { stream_id: 7, property: 'pin_to_top', value: true },
    ]);
  });

  it('sends only the changed general settings, and carries a refusal', async () => {
    const { fake, wrapper } = fakeSession();
    fake.respond({});
    fake.respondError('BAD_REQUEST', 'Must be an organization owner');
    const { result } = renderHook(() => useUpdateChannel(7), { wrapper });
    act(() => result.current.mutate({ description: 'New **words**', stream_post_policy: 2 }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(fake.last.method).toBe('PATCH');
    expect(fake.last.path).toBe('/api/v1/streams/7');
    expect(fake.last.body.get('description')).toBe('New **words**');
    expect(fake.last.body.get('stream_post_policy')).toBe('2');
    expect(fake.last.body.has('new_name')).toBe(false);

    act(() => result.current.mutate({ message_retention_days: 'unlimited' }));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(fake.last.body.get('message_retention_days')).toBe('unlimited');
    expect(errorText(result.current.error)).toBe('Must be an organization owner');
  });

  it('adds and removes other people by user id', async () => {
    const { fake, wrapper } = fakeSession();
    fake.respond({ subscribed: {}, already_subscribed: {} });
    fake.respond({ removed: ['design'], not_removed: [] });
    const { result } = renderHook(() => useChangeSubscribers('design', 9), { wrapper });
    act(() => result.current.mutate({ userIds: [4], add: true }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(fake.last.method).toBe('POST');
    expect(JSON.parse(fake.last.body.get('subscriptions')!)).toEqual([{ name: 'design' }]);
    expect(JSON.parse(fake.last.body.get('principals')!)).toEqual([4]);
    act(() => result.current.mutate({ userIds: [4], add: false }));
    await waitFor(() => expect(fake.requests).toHaveLength(2));
    expect(fake.last.method).toBe('DELETE');
    expect(JSON.parse(param(fake.last, 'subscriptions')!)).toEqual(['design']);
  });

  it('creates a channel with its privacy, policy, first subscribers and announcement', async () => {
    const { fake, wrapper } = fakeSession();
    fake.respond({ subscribed: {}, already_subscribed: {} });
    const { result } = renderHook(() => useCreateChannelWithSettings(), { wrapper });
    act(() =>
      result.current.mutate({
        name: 'plans',
        description: 'Secret',
        privacy: { invite_only: true, is_web_public: false, history_public_to_subscribers: false },
        postPolicy: 4,
        subscriberIds: [1, 5],
        announce: true,
      }),
    );
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    const body = fake.last.body;
    expect(JSON.parse(body.get('subscriptions')!)).toEqual([
      { name: 'plans', description: 'Secret' },
    ]);
    expect(body.get('invite_only')).toBe('true');
    expect(body.get('history_public_to_subscribers')).toBe('false');
    expect(body.get('stream_post_policy')).toBe('4');
    expect(body.get('announce')).toBe('true');
    expect(JSON.parse(body.get('principals')!)).toEqual([1, 5]);
  });
});

describe('default channels', () => {
  it('adds with POST and removes with DELETE', async () => {
    const { fake, wrapper } = fakeSession();
    fake.respond({}).respond({});
    const { result } = renderHook(() => useSetDefaultChannel(), { wrapper });
    act(() => result.current.mutate({ streamId: 3, isDefault: true }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(fake.last.method).toBe('POST');
    expect(fake.last.path).toBe('/api/v1/default_streams');
    expect(param(fake.last, 'stream_id')).toBe('3');
    act(() => result.current.mutate({ streamId: 3, isDefault: false }));
    await waitFor(() => expect(fake.requests).toHaveLength(2));
    expect(fake.last.method).toBe('DELETE');
  });

  it('renames a group and changes its channels in separate requests', async () => {
    const { fake, wrapper } = fakeSession();
    fake.respond({}).respond({}).respond({});
    const { result } = renderHook(() => useEditDefaultChannelGroup(2), { wrapper });
    act(() => result.current.mutate({ name: 'Starters', add: ['general'], remove: ['old'] }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(fake.requests.map((r) => [r.method, r.path])).toEqual([
      ['PATCH', '/api/v1/default_stream_groups/2'],
      ['PATCH', '/api/v1/default_stream_groups/2/streams'],
      ['PATCH', '/api/v1/default_stream_groups/2/streams'],
    ]);
    expect(fake.requests[0].body.get('new_group_name')).toBe('Starters');
    expect(fake.requests[0].body.has('new_description')).toBe(false);
    expect(fake.requests[1].body.get('op')).toBe('add');
    expect(JSON.parse(fake.requests[2].body.get('stream_names')!)).toEqual(['old']);
  });
});
