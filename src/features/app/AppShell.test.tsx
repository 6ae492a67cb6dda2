import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PollerApi } from '../../model/poller';
import { eg } from '../../test/eg';
import { AppShell } from './AppShell';
import { createAccountSession } from '../../queries/session-caches';
import { SessionProvider } from './SessionProvider';

/** A poller API that registers once and then waits; events are pushed by the test. */
function scriptedPoller() {
  let deliver: (events: unknown[]) => void = () => {};
  const api: PollerApi = {
    register: async () =>
      eg.registerResponse({
        unread_msgs: {
          count: 3,
          pms: [{ other_user_id: 2, unread_message_ids: [21] }],
          streams: [{ stream_id: 5, topic: 'lunch', unread_message_ids: [11, 12] }],
          huddles: [],
          mentions: [],
          old_unreads_missing: false,
        },
        recent_private_conversations: [{ max_message_id: 21, user_ids: [2] }],
      }),
    getEvents: () => new Promise((resolve) => (deliver = resolve)),
  };
  return { api, push: (events: unknown[]) => deliver(events) };
}

async function renderShell(path: string) {
  vi.stubGlobal(
    'fetch',
    async () =>
      new Response(
        JSON.stringify({
          result: 'success',
          msg: '',
          messages: [],
          topics: [],
          found_oldest: true,
          found_newest: true,
          anchor: 0,
        }),
      ),
  );
  const queryClient = new QueryClient();
  const poller = scriptedPoller();
  const session = createAccountSession('self@example.com', 'key', queryClient, {
    pollerApi: poller.api,
    storage: null,
  });
  session.start();
  await vi.waitFor(() => expect(session.state.getState().store).not.toBeNull());
  render(
    <QueryClientProvider client={queryClient}>
      <SessionProvider session={session}>
        <MemoryRouter initialEntries={[path]}>
          <AppShell />
        </MemoryRouter>
      </SessionProvider>
    </QueryClientProvider>,
  );
  return { session, poller };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('AppShell', () => {
  it('names sidebar entries by conversation and unread count', async () => {
    const { session } = await renderShell('/inbox');
    const sidebar = within(screen.getByRole('navigation', { name: 'Channels and views' }));
    expect(sidebar.getByRole('link', { name: 'general, 2 unread' })).toBeTruthy();
    expect(sidebar.getByRole('link', { name: 'Other User, 1 unread' })).toBeTruthy();
    expect(
      sidebar.getByRole('link', { name: 'Inbox, 3 unread' }).getAttribute('aria-current'),
    ).toBe('page');
    // The view's own chunk loads first (lazy), then it renders.
    expect(await screen.findByRole('heading', { name: 'Inbox' })).toBeTruthy();
    session.stop();
  });

  it('updates counts live when events arrive', async () => {
    const { session, poller } = await renderShell('/inbox');
    await act(async () => {
      poller.push([
        {
          id: 0,
          type: 'update_message_flags',
          op: 'add',
          flag: 'read',
          messages: [11],
          all: false,
        },
      ]);
      await Promise.resolve();
    });
    const sidebar = within(screen.getByRole('navigation', { name: 'Channels and views' }));
    await vi.waitFor(() =>
      expect(sidebar.getByRole('link', { name: 'general, 1 unread' })).toBeTruthy(),
    );
    session.stop();
  });

  it('offers a reload after the server restarted, until dismissed', async () => {
    const { session, poller } = await renderShell('/inbox');
    expect(screen.queryByText(/restarted on the server/)).toBeNull();
    await act(async () => {
      poller.push([
        { id: 0, type: 'restart', zulip_version: '11.0', server_generation: 2, immediate: false },
      ]);
      await Promise.resolve();
    });
    const banner = await screen.findByText(/restarted on the server/);
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(banner.isConnected).toBe(false);
    session.stop();
  });

  it('opens a topic narrow from its URL, with labelled compose fields', async () => {
    const { session } = await renderShell('/narrow/channel/5-general/topic/lunch');
    expect(await screen.findByRole('heading', { name: 'general › lunch' })).toBeTruthy();
    expect((screen.getByLabelText('Topic') as HTMLInputElement).value).toBe('lunch');
    expect(screen.getByLabelText('Message')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send message' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'lunch, 2 unread' })).toBeTruthy();
    session.stop();
  });
});
