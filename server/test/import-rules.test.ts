import { describe, expect, it } from 'vitest';
import { RULES, violations, type ImportEdge } from '../../scripts/import-rules.mjs';

/**
 * The layer rules of scripts/check-imports.mjs on synthetic graphs: each rule fires on an import
 * it forbids, and says nothing of the same two files imported the other way, the way the layers
 * allow.
 */

const reversed = ([from, to]: ImportEdge): ImportEdge => [to, from];

/** Per rule, the imports it must refuse; each is allowed the other way round. */
const FORBIDDEN: Record<string, ImportEdge[]> = {
  'events-plumbing': [
    ['server/events/queue.ts', 'server/actions/send-message.ts'],
    ['server/events/queue.ts', 'server/lib/narrow.ts'],
    ['server/events/manager.ts', 'server/register/register.ts'],
    ['server/events/manager.ts', 'server/routes/events.ts'],
    ['server/events/queue.ts', 'server/http/client-gone.ts'],
    ['server/events/manager.ts', 'server/context.ts'],
  ],
  'lib-below-actions': [
    ['server/lib/access.ts', 'server/actions/subscriptions.ts'],
    ['server/lib/streams.ts', 'server/register/initial-state.ts'],
  ],
  'actions-below-register': [['server/actions/users.ts', 'server/register/realm-users.ts']],
  'api-knows-no-store': [
    ['src/api/connection.ts', 'src/model/store.ts'],
    ['src/api/connection.ts', 'src/queries/messages.ts'],
    ['src/api/model/user.ts', 'src/features/app/session-context.ts'],
  ],
  'model-knows-no-screen': [['src/model/store.ts', 'src/features/app/session-context.ts']],
  'server-uses-only-wire-model': [
    ['server/actions/send-message.ts', 'src/model/messages.ts'],
    ['server/domain/serialize.ts', 'src/api/connection.ts'],
    ['server/pages/strings.ts', 'src/i18n/index.ts'],
  ],
  'routes-reach-db-through-actions': [['server/routes/messages.ts', 'server/db/index.ts']],
  'domain-speaks-no-http': [
    ['server/actions/send-message.ts', 'server/http/errors.ts'],
    ['server/lib/access.ts', 'server/http/params.ts'],
    ['server/register/register.ts', 'server/http/auth.ts'],
  ],
  'db-knows-no-permissions': [
    ['server/db/search.ts', 'server/lib/access.ts'],
    ['server/db/index.ts', 'server/actions/realm.ts'],
  ],
};

/** Per rule, imports beside the forbidden ones that it must let through. */
const ALLOWED: Record<string, ImportEdge[]> = {
  'events-plumbing': [
    ['server/events/queue.ts', 'server/domain/message-facts.ts'],
    ['server/events/queue.ts', 'server/db/schema.ts'],
    ['server/events/types.ts', 'src/api/model/events.ts'],
  ],
  'lib-below-actions': [['server/lib/narrow.ts', 'server/domain/errors.ts']],
  'actions-below-register': [['server/actions/users.ts', 'server/lib/access.ts']],
  'api-knows-no-store': [
    ['src/api/connection.ts', 'src/api/errors.ts'],
    ['src/api/connection.ts', 'react-dom'],
  ],
  'model-knows-no-screen': [['src/model/store.ts', 'src/api/model/index.ts']],
  'server-uses-only-wire-model': [
    ['server/domain/roles.ts', 'src/api/model/user.ts'],
    ['server/pages/strings.ts', 'src/i18n/languages.ts'],
    ['server/pages/strings.ts', 'src/i18n/locales/fr/signup.json'],
  ],
  'routes-reach-db-through-actions': [
    ['server/routes/messages.ts', 'server/actions/send-message.ts'],
  ],
  'domain-speaks-no-http': [['server/actions/send-message.ts', 'server/domain/errors.ts']],
  'db-knows-no-permissions': [['server/db/search.ts', 'server/domain/search-text.ts']],
};

const ruleNames = (edges: ImportEdge[]) => violations(edges).map((v) => v.rule.name);

describe('import rules', () => {
  it('has a case for every rule', () => {
    const names = RULES.map((rule) => rule.name).sort();
    expect(Object.keys(FORBIDDEN).sort()).toEqual(names);
    expect(Object.keys(ALLOWED).sort()).toEqual(names);
  });

  describe.each(RULES.map((rule) => rule.name))('%s', (name) => {
    it.each(FORBIDDEN[name]!)('refuses %s importing %s', (from, to) => {
      expect(ruleNames([[from, to]])).toContain(name);
    });

    it.each(FORBIDDEN[name]!.map(reversed))('allows %s importing %s', (from, to) => {
      expect(violations([[from, to]])).toEqual([]);
    });

    it.each(ALLOWED[name]!)('allows %s importing %s', (from, to) => {
      expect(violations([[from, to]])).toEqual([]);
    });
  });

  it('refuses react and zustand in the wire layer, by package name and subpath', () => {
    expect(ruleNames([['src/api/connection.ts', 'react']])).toEqual(['api-knows-no-store']);
    expect(ruleNames([['src/api/connection.ts', 'zustand/vanilla']])).toEqual([
      'api-knows-no-store',
    ]);
    expect(violations([['src/model/store.ts', 'zustand']])).toEqual([]);
  });

  it('lets tests reach across layers', () => {
    expect(violations([['server/test/central.test.ts', 'src/model/account-state.ts']])).toEqual([]);
    expect(violations([['server/db/row-cache.test.ts', 'server/lib/streams.ts']])).toEqual([]);
  });
});
