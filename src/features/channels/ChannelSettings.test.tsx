import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ROLE, type Role } from '../../api/model/user';
import { eg } from '../../test/eg';
import { fakeSession } from '../../test/fake-session';
import { ChannelSettings } from './ChannelSettings';

function routed(wrapper: (props: { children: ReactNode }) => ReactNode) {
  const Wrapper = wrapper;
  return ({ children }: { children: ReactNode }) => (
    <MemoryRouter>
      <Wrapper>{children}</Wrapper>
    </MemoryRouter>
  );
}

afterEach(cleanup);

const design = eg.subscription({
  stream_id: 9,
  name: 'design',
  description: 'Mockups',
  rendered_description: '<p>Mockups <img src=x onerror="alert(1)"></p>',
  invite_only: true,
  history_public_to_subscribers: false,
  stream_post_policy: 1,
  desktop_notifications: null,
  subscribers: [eg.selfUser.user_id, eg.otherUser.user_id],
});

function session(role: Role) {
  return fakeSession(
    eg.registerResponse({
      realm_users: [{ ...eg.selfUser, role }, eg.otherUser, eg.thirdUser],
      streams: [design],
      subscriptions: [design],
    }),
  );
}

describe('ChannelSettings', () => {
  it('shows a member the general settings read-only, with the description sanitised', () => {
    const { wrapper } = session(ROLE.MEMBER);
    render(<ChannelSettings streamId={9} tab="general" />, { wrapper: routed(wrapper) });
    expect(screen.getByText('Only administrators can change these settings.')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();
    expect(screen.getByText('Private, protected history')).toBeTruthy();
    expect(document.querySelector('[onerror]')).toBeNull();
    expect(screen.getByText('Mockups')).toBeTruthy();
  });

  it('lets an administrator edit, and follows a stream event while not editing', () => {
    const { wrapper, session: core } = session(ROLE.ADMINISTRATOR);
    render(<ChannelSettings streamId={9} tab="general" />, { wrapper: routed(wrapper) });
    const name = screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement;
    expect(name.value).toBe('design');
    expect(screen.getByRole('button', { name: 'Archive channel' })).toBeTruthy();
    // Retention belongs to owners: an administrator reads it.
    expect(screen.getByText('Only organization owners can change this.')).toBeTruthy();
    act(() =>
      core.state
        .getState()
        .store!.getState()
        .eventsReceived([
          {
            id: 1,
            type: 'stream',
            op: 'update',
            stream_id: 9,
            property: 'name',
            value: 'designs',
          },
        ]),
    );
    expect(name.value).toBe('designs');
  });

  it('shows notification settings with the default they follow', () => {
    const { wrapper } = session(ROLE.MEMBER);
    render(<ChannelSettings streamId={9} tab="personal" />, { wrapper: routed(wrapper) });
    const desktop = screen.getByRole('checkbox', { name: 'Desktop notifications' });
    expect((desktop as HTMLInputElement).checked).toBe(false);
    expect(screen.getAllByText('As the default (off)').length).toBeGreaterThan(0);
  });

  it('asks before archiving, and Cancel leaves the channel alone', () => {
    const { wrapper, fake } = session(ROLE.OWNER);
    render(<ChannelSettings streamId={9} tab="general" />, { wrapper: routed(wrapper) });
    fireEvent.click(screen.getByRole('button', { name: 'Archive channel' }));
    expect(screen.getByRole('alertdialog', { name: /Archive #design\?/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(fake.requests).toHaveLength(0);
  });

  it('lists subscribers with a count, and offers a member only their own removal', () => {
    const { wrapper } = session(ROLE.MEMBER);
    render(<ChannelSettings streamId={9} tab="subscribers" />, { wrapper: routed(wrapper) });
    expect(screen.getByRole('heading', { name: '2 subscribers' })).toBeTruthy();
    expect(screen.getByRole('button', { name: `Remove ${eg.selfUser.full_name}` })).toBeTruthy();
    expect(screen.queryByRole('button', { name: `Remove ${eg.otherUser.full_name}` })).toBeNull();
  });
});
