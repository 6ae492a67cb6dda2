import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UserSettings } from '../../api/model';
import { eg } from '../../test/eg';
import { createAccountSession } from '../../queries/session-caches';
import { SessionProvider } from '../app/SessionProvider';
import { useTypingNotifier, type TypingTarget } from './use-typing-notifier';

/** The typing requests the hook made, as "op type" strings. */
async function setup(settings: Partial<UserSettings> = {}) {
  const sent: string[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    if (String(url).endsWith('/typing')) {
      const body = new URLSearchParams(String(init?.body ?? ''));
      sent.push(`${body.get('op')} ${body.get('type')}`);
    }
    return new Response(JSON.stringify({ result: 'success', msg: '' }), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  const session = createAccountSession('self@example.com', 'key', new QueryClient(), {
    storage: null,
    pollerApi: {
      register: async () =>
        eg.registerResponse({
          user_settings: { ...eg.registerResponse().user_settings, ...settings },
        }),
      getEvents: () => new Promise(() => {}),
    },
  });
  session.start();
  await waitFor(() => expect(session.state.getState().store).not.toBeNull());
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={session.queryClient}>
      <SessionProvider session={session}>{children}</SessionProvider>
    </QueryClientProvider>
  );
  vi.useFakeTimers();
  return { sent, session, wrapper };
}

const stream: TypingTarget = { type: 'stream', stream_id: 5, topic: 'lunch' };
const direct: TypingTarget = { type: 'direct', to: [2] };

/** Lets the fake fetch calls settle. */
const flush = () => act(async () => {});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the typing notifier (started wait 10 s, stopped wait 5 s)', () => {
  it('sends start once, again after the started wait, and stop after the stopped wait of quiet', async () => {
    const { sent, session, wrapper } = await setup();
    const { result } = renderHook(() => useTypingNotifier(stream), { wrapper });
    act(() => result.current.typed());
    act(() => vi.advanceTimersByTime(3000));
    act(() => result.current.typed());
    await flush();
    expect(sent).toEqual(['start stream']);
    act(() => vi.advanceTimersByTime(4000));
    act(() => result.current.typed()); // 7 s: still within the started wait
    act(() => vi.advanceTimersByTime(4000));
    act(() => result.current.typed()); // 11 s: time to repeat the start
    await flush();
    expect(sent).toEqual(['start stream', 'start stream']);
    act(() => vi.advanceTimersByTime(5001));
    await flush();
    expect(sent).toEqual(['start stream', 'start stream', 'stop stream']);
    session.stop();
  });

  it('stops at once when the message is sent, and never sends a stop without a start', async () => {
    const { sent, session, wrapper } = await setup();
    const { result } = renderHook(() => useTypingNotifier(direct), { wrapper });
    act(() => result.current.stopped());
    await flush();
    expect(sent).toEqual([]);
    act(() => result.current.typed());
    act(() => result.current.stopped());
    act(() => vi.advanceTimersByTime(10_000));
    await flush();
    expect(sent).toEqual(['start direct', 'stop direct']);
    session.stop();
  });

  it('stays silent where the user turned typing notifications off', async () => {
    const { sent, session, wrapper } = await setup({
      send_stream_typing_notifications: false,
    });
    const streamHook = renderHook(() => useTypingNotifier(stream), { wrapper });
    act(() => streamHook.result.current.typed());
    const dmHook = renderHook(() => useTypingNotifier(direct), { wrapper });
    act(() => dmHook.result.current.typed());
    await flush();
    expect(sent).toEqual(['start direct']);
    session.stop();
  });

  it('stops typing in the old conversation when the recipient changes', async () => {
    const { sent, session, wrapper } = await setup();
    const { result, rerender } = renderHook(({ target }) => useTypingNotifier(target), {
      wrapper,
      initialProps: { target: stream as TypingTarget },
    });
    act(() => result.current.typed());
    rerender({ target: direct });
    await flush();
    expect(sent).toEqual(['start stream', 'stop stream']);
    session.stop();
  });
});
