import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { Bot, User } from '../../../api/model';
import { ROLE } from '../../../api/model/user';
import { eg } from '../../../test/eg';
import { fakeSession } from '../../../test/fake-session';
import { AdminView } from '../AdminView';

afterEach(cleanup);

const admin: User = { ...eg.selfUser, role: ROLE.ADMINISTRATOR, is_admin: true };

const bot = (overrides: Partial<Bot> & { user_id: number }): Bot => ({
  full_name: `Bot ${overrides.user_id}`,
  email: `bot${overrides.user_id}-bot@parley.bots`,
  api_key: `key${overrides.user_id}`,
  bot_type: 1,
  owner_id: admin.user_id,
  is_active: true,
  default_sending_stream: null,
  default_events_register_stream: null,
  default_all_public_streams: false,
  services: [],
  ...overrides,
});

const hook = bot({
  user_id: 70,
  full_name: 'Deploy hook',
  bot_type: 3,
  services: [{ base_url: 'https://ci.example.com/parley', interface: 1, token: 'tok-70' }],
});

function renderBots(bots: Bot[] = []) {
  const session = fakeSession(
    eg.registerResponse({
      realm_users: [admin, eg.otherUser, eg.thirdUser],
      is_admin: true,
      realm_bots: bots,
    }),
  );
  const Wrapper = session.wrapper;
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter>
      <Wrapper>{children}</Wrapper>
    </MemoryRouter>
  );
  render(<AdminView section="bots" />, { wrapper });
  return session;
}

const createForm = () => screen.getByRole('button', { name: 'Create bot' }).closest('form')!;
const fill = (label: string, value: string, within_: HTMLElement = document.body) =>
  fireEvent.change(within(within_).getByLabelText(label), { target: { value } });

describe('creating an outgoing webhook bot', () => {
  it('offers the endpoint URL and interface only for that type', () => {
    renderBots();
    const form = createForm();
    expect(within(form).getByRole('option', { name: 'Outgoing webhook' })).toBeTruthy();
    expect(within(form).queryByLabelText('Endpoint URL')).toBeNull();
    expect(within(form).queryByLabelText('Interface')).toBeNull();

    fill('Bot type', '3', form);
    const url = within(form).getByLabelText<HTMLInputElement>('Endpoint URL');
    expect(url.type).toBe('url');
    expect(url.required).toBe(true);
    const iface = within(form).getByLabelText<HTMLSelectElement>('Interface');
    expect([...iface.options].map((o) => o.textContent)).toEqual([
      'Generic (Zulip)',
      'Slack compatible',
    ]);

    fill('Bot type', '2', form);
    expect(within(form).queryByLabelText('Endpoint URL')).toBeNull();
    expect(within(form).queryByLabelText('Interface')).toBeNull();
  });

  it('sends bot_type 3 with the URL JSON-encoded and the interface, and only once a URL is given', async () => {
    const { fake } = renderBots();
    const form = createForm();
    fill('Bot type', '3', form);
    fill('Name', 'Deploy hook', form);
    fill('Username', 'deploy', form);
    const create = within(form).getByRole<HTMLButtonElement>('button', { name: 'Create bot' });
    expect(create.disabled).toBe(true);
    fill('Endpoint URL', ' https://ci.example.com/parley?x=1&y=2 ', form);
    fill('Interface', '2', form);
    expect(create.disabled).toBe(false);

    fake.respond({ user_id: 71, api_key: 'new-key' });
    fireEvent.click(create);
    await waitFor(() => expect(fake.requests).toHaveLength(1));
    expect(fake.last.method).toBe('POST');
    expect(fake.last.path).toBe('/api/v1/bots');
    expect(Object.fromEntries(fake.last.body)).toEqual({
      full_name: 'Deploy hook',
      short_name: 'deploy',
      bot_type: '3',
      payload_url: '"https://ci.example.com/parley?x=1&y=2"',
      interface_type: '2',
    });
    await waitFor(() =>
      expect(within(form).getByLabelText<HTMLInputElement>('Name').value).toBe(''),
    );
    expect(within(form).getByLabelText<HTMLInputElement>('Endpoint URL').value).toBe('');
  });

  it('sends neither for the other types', async () => {
    const { fake } = renderBots();
    const form = createForm();
    fill('Bot type', '3', form);
    fill('Endpoint URL', 'https://ci.example.com/parley', form);
    fill('Bot type', '2', form);
    fill('Name', 'Alerts', form);
    fill('Username', 'alerts', form);
    fake.respond({ user_id: 72, api_key: 'new-key' });
    fireEvent.click(within(form).getByRole('button', { name: 'Create bot' }));
    await waitFor(() => expect(fake.requests).toHaveLength(1));
    expect(fake.last.body.get('bot_type')).toBe('2');
    expect(fake.last.body.has('payload_url')).toBe(false);
    expect(fake.last.body.has('interface_type')).toBe(false);
  });

  it("shows the server's refusal beside the form", async () => {
    const { fake } = renderBots();
    const form = createForm();
    fill('Bot type', '3', form);
    fill('Name', 'Deploy hook', form);
    fill('Username', 'deploy', form);
    fill('Endpoint URL', 'https://ci.example.com/parley', form);
    fake.respondError('BAD_REQUEST', 'payload_url is not a URL');
    fireEvent.click(within(form).getByRole('button', { name: 'Create bot' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('payload_url is not a URL');
  });

  it('shows the new bot its webhook token once the realm_bot event brings it', async () => {
    const { fake, store } = renderBots();
    const form = createForm();
    fill('Bot type', '3', form);
    fill('Name', 'Deploy hook', form);
    fill('Username', 'deploy', form);
    fill('Endpoint URL', 'https://ci.example.com/parley', form);
    fake.respond({ user_id: 70, api_key: 'key70' });
    fireEvent.click(within(form).getByRole('button', { name: 'Create bot' }));
    await waitFor(() => expect(fake.requests).toHaveLength(1));
    act(() => store().eventsReceived([{ id: 1, type: 'realm_bot', op: 'add', bot: hook }]));
    const created = await screen.findByText(/Deploy hook is ready/);
    const box = created.closest('[role="status"]') as HTMLElement;
    expect(within(box).getByLabelText<HTMLInputElement>('Outgoing webhook token').value).toBe(
      'tok-70',
    );
  });
});

describe('an outgoing webhook bot in the list', () => {
  const row = () => screen.getByText('Deploy hook').closest('li')!;

  it('shows its endpoint URL and interface, and follows realm_bot updates of its services', () => {
    const { store } = renderBots([hook, bot({ user_id: 71, full_name: 'Plain' })]);
    expect(row().textContent).toContain('Outgoing webhook');
    expect(row().textContent).toContain('Endpoint https://ci.example.com/parley · Generic (Zulip)');
    const plain = screen.getByText('Plain').closest('li')!;
    expect(plain.textContent).not.toContain('Endpoint');

    act(() =>
      store().eventsReceived([
        {
          id: 1,
          type: 'realm_bot',
          op: 'update',
          bot: {
            user_id: 70,
            services: [{ base_url: 'https://new.example.com/hook', interface: 2, token: 'tok-70' }],
          },
        },
      ]),
    );
    expect(row().textContent).toContain('Endpoint https://new.example.com/hook · Slack compatible');
  });

  it('changes its URL and interface with PATCH /bots/{id}, and shows its token to copy', async () => {
    const { fake } = renderBots([hook]);
    fireEvent.click(screen.getByRole('button', { name: 'Edit Deploy hook' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Deploy hook' });
    const token = within(dialog).getByLabelText<HTMLInputElement>('Outgoing webhook token');
    expect(token.value).toBe('tok-70');
    expect(token.readOnly).toBe(true);
    expect(token.className).toContain('admin-key');
    const url = within(dialog).getByLabelText<HTMLInputElement>('Endpoint URL');
    expect(url.value).toBe('https://ci.example.com/parley');
    expect(within(dialog).getByLabelText<HTMLSelectElement>('Interface').value).toBe('1');

    fill('Endpoint URL', 'https://new.example.com/hook', dialog);
    fill('Interface', '2', dialog);
    fake.respond({});
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.last.method).toBe('PATCH');
    expect(fake.last.path).toBe('/api/v1/bots/70');
    expect(Object.fromEntries(fake.last.body)).toEqual({
      service_payload_url: '"https://new.example.com/hook"',
      service_interface: '2',
    });
  });

  it("keeps the dialog open with the server's refusal", async () => {
    const { fake } = renderBots([hook]);
    fireEvent.click(screen.getByRole('button', { name: 'Edit Deploy hook' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Deploy hook' });
    fill('Interface', '2', dialog);
    fake.respondError('BAD_REQUEST', 'Invalid interface type');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Invalid interface type');
    expect(Object.fromEntries(fake.last.body)).toEqual({ service_interface: '2' });
  });

  it('offers no webhook fields for the other types', () => {
    renderBots([bot({ user_id: 71, full_name: 'Plain' })]);
    fireEvent.click(screen.getByRole('button', { name: 'Edit Plain' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Plain' });
    expect(within(dialog).queryByLabelText('Endpoint URL')).toBeNull();
    expect(within(dialog).queryByLabelText('Outgoing webhook token')).toBeNull();
  });

  it('shows its token beside the API key', () => {
    renderBots([hook]);
    fireEvent.click(screen.getByRole('button', { name: 'API key of Deploy hook' }));
    const dialog = screen.getByRole('dialog', { name: 'API key of Deploy hook' });
    expect(within(dialog).getByLabelText<HTMLInputElement>('API key of Deploy hook').value).toBe(
      'key70',
    );
    expect(within(dialog).getByLabelText<HTMLInputElement>('Outgoing webhook token').value).toBe(
      'tok-70',
    );
  });
});
