import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeFetch } from '../../test/fake-fetch';
import { DeactivatedScreen } from './DeactivatedScreen';
import { LoginScreen } from './LoginScreen';

let fake: FakeFetch;

function renderLogin() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <LoginScreen />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  fake = new FakeFetch().respond({
    realm_name: 'Parley Demo',
    realm_icon: '/realm-icon/1.svg',
    realm_uri: 'http://chat.example.com',
    email_auth_enabled: true,
  });
  vi.stubGlobal('fetch', fake.fetch);
  localStorage.clear();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('LoginScreen', () => {
  it('names the organization from the server settings', async () => {
    renderLogin();
    expect(await screen.findByRole('heading', { name: 'Log in to Parley Demo' })).toBeTruthy();
    expect(fake.requests[0].path).toBe('/api/v1/server_settings');
  });

  it("links a forgotten password to the organization's reset page", async () => {
    renderLogin();
    await screen.findByRole('heading', { name: 'Log in to Parley Demo' });
    const link = screen.getByRole('link', { name: 'Forgot your password?' });
    expect(link.getAttribute('href')).toBe('http://chat.example.com/accounts/password/reset/');
  });

  it('offers no reset where the organization allows no password login', async () => {
    fake = new FakeFetch().respond({ realm_name: 'Parley Demo', email_auth_enabled: false });
    vi.stubGlobal('fetch', fake.fetch);
    renderLogin();
    expect(
      await screen.findByText('This organization does not allow logging in with a password.'),
    ).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Forgot your password?' })).toBeNull();
  });

  it('shows the server error plainly and keeps the user on the form', async () => {
    fake.respondError('BAD_REQUEST', 'Your username or password is incorrect', 401);
    renderLogin();
    await screen.findByRole('heading', { name: 'Log in to Parley Demo' });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'hamlet@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Your username or password is incorrect',
    );
    expect(localStorage.getItem('parley.account')).toBeNull();
  });

  it('says how long to wait when the account is locked after failed attempts', async () => {
    fake.respondError('RATE_LIMIT_HIT', 'API usage exceeded rate limit', 429, {
      'retry-after': 1500.2,
    });
    renderLogin();
    await screen.findByRole('heading', { name: 'Log in to Parley Demo' });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'hamlet@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'parley-demo' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many failed attempts to log in to this account. Try again in 26 minutes.',
    );
    expect(localStorage.getItem('parley.account')).toBeNull();
  });

  it('keeps the API key in localStorage after a successful login', async () => {
    fake.respond({ api_key: 'secret', email: 'hamlet@example.com', user_id: 4 });
    renderLogin();
    await screen.findByRole('heading', { name: 'Log in to Parley Demo' });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: ' hamlet@example.com ' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'parley-demo' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await vi.waitFor(() => expect(localStorage.getItem('parley.account')).not.toBeNull());
    expect(JSON.parse(localStorage.getItem('parley.account')!)).toEqual({
      email: 'hamlet@example.com',
      apiKey: 'secret',
      userId: 4,
    });
    expect(fake.last.body.get('username')).toBe('hamlet@example.com');
  });
});

describe('DeactivatedScreen', () => {
  it('explains a deactivated account', () => {
    render(<DeactivatedScreen reason="USER_DEACTIVATED" />);
    expect(screen.getByRole('heading', { name: 'Your account has been deactivated' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Back to login' })).toBeTruthy();
  });
});
