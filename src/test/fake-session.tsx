/** A logged-in session core over a FakeFetch, for testing hooks of the query layer. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createStore } from 'zustand/vanilla';
import { ApiConnection } from '../api/connection';
import type { RegisterResponse, ServerSettings } from '../api/model';
import { createAccountStore } from '../model/account-store';
import { StoreHolderContext } from '../model/hooks';
import { createOutboxStore } from '../model/outbox';
import { SessionCoreContext, type SessionCore, type SessionState } from '../model/session-core';
import { accountKeys } from '../queries/account';
import { applyEventsToQueryCache } from '../queries/apply-event';
import { reactQueryCaches } from '../queries/session-caches';
import { eg } from './eg';
import { FakeFetch } from './fake-fetch';

export function fakeSession(register: RegisterResponse = eg.registerResponse()) {
  const fake = new FakeFetch();
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const session: SessionCore = {
    connection: new ApiConnection({ baseUrl: 'http://parley.test/api/v1', fetch: fake.fetch }),
    queryClient,
    caches: reactQueryCaches(queryClient, applyEventsToQueryCache),
    state: createStore<SessionState>()(() => ({
      store: createAccountStore(register),
      status: 'connected',
      stopReason: null,
      restored: false,
    })),
    outbox: createOutboxStore(),
    spectator: false,
  };
  // What the server offers, as if fetched already (AdminView reads it): none of Parley's extensions.
  const serverSettings: ServerSettings = {
    authentication_methods: { password: true },
    external_authentication_methods: [],
    push_notifications_enabled: false,
    is_incompatible: false,
    email_auth_enabled: true,
    require_email_format_usernames: true,
    realm_uri: 'http://parley.test',
    parley_extensions: [],
  };
  queryClient.setQueryData(accountKeys.serverSettings, serverSettings);
  const store = () => session.state.getState().store!.getState();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <SessionCoreContext.Provider value={session}>
        <StoreHolderContext.Provider value={session.state}>{children}</StoreHolderContext.Provider>
      </SessionCoreContext.Provider>
    </QueryClientProvider>
  );
  return { fake, session, queryClient, store, wrapper };
}
