import type { ReactNode } from 'react';
import { StoreHolderContext } from '../../model/hooks';
import { SessionCoreContext } from '../../model/session-core';
import type { AccountSession } from '../../model/session';
import { SessionContext } from '../../model/session-context';

/**
 * One session, offered in the three shapes its readers need: the whole session to screens, its
 * core to the query layer's mutation hooks, its store holder to the model's selector hooks.
 */
export function SessionProvider({
  session,
  children,
}: {
  session: AccountSession;
  children: ReactNode;
}) {
  return (
    <SessionContext.Provider value={session}>
      <SessionCoreContext.Provider value={session}>
        <StoreHolderContext.Provider value={session.state}>{children}</StoreHolderContext.Provider>
      </SessionCoreContext.Provider>
    </SessionContext.Provider>
  );
}
