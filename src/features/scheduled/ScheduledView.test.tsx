import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { eg } from '../../test/eg';
import { fakeSession } from '../../test/fake-session';
import { ScheduledView } from './ScheduledView';

afterEach(cleanup);

function setUp() {
  const streamId = eg.generalStream.stream_id;
  const session = fakeSession({
    ...eg.registerResponse(),
    scheduled_messages: [
      {
        scheduled_message_id: 7,
        type: 'stream',
        to: streamId,
        topic: 'lunch',
        content: 'Soup at noon',
        rendered_content: '<p>Soup at noon</p><img src=x onerror="alert(1)">',
        scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 3600,
        failed: false,
      },
    ],
  });
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter>
      <session.wrapper>{children}</session.wrapper>
    </MemoryRouter>
  );
  render(<ScheduledView />, { wrapper: Wrapper });
  return session;
}

describe('ScheduledView', () => {
  it('lists a scheduled message with its recipient and sanitised content', () => {
    setUp();
    const title = `${eg.generalStream.name} › lunch`;
    expect(screen.getByRole('heading', { name: title })).toBeTruthy();
    expect(screen.getByText('Soup at noon')).toBeTruthy();
    expect(document.querySelector('[onerror]')).toBeNull();
  });

  it('cancels only after confirmation', async () => {
    const session = setUp();
    const title = `${eg.generalStream.name} › lunch`;
    fireEvent.click(screen.getByRole('button', { name: `Cancel message to ${title}` }));
    expect(session.fake.requests).toHaveLength(0);
    session.fake.respond({});
    fireEvent.click(screen.getByRole('button', { name: 'Cancel message' }));
    await waitFor(() => expect(session.fake.requests).toHaveLength(1));
    expect(session.fake.requests[0]).toMatchObject({
      method: 'DELETE',
      path: '/api/v1/scheduled_messages/7',
    });
  });

  it('saves an edit of content and topic', async () => {
    const session = setUp();
    const title = `${eg.generalStream.name} › lunch`;
    fireEvent.click(screen.getByRole('button', { name: `Edit message to ${title}` }));
    fireEvent.change(screen.getByLabelText('Topic'), { target: { value: 'dinner' } });
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Soup at six' } });
    session.fake.respond({});
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(session.fake.requests).toHaveLength(1));
    const request = session.fake.requests[0];
    expect(request.method).toBe('PATCH');
    expect(request.body.get('topic')).toBe('dinner');
    expect(request.body.get('content')).toBe('Soup at six');
  });
});
