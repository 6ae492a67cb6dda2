/** The organization's linkifiers, in the order the server applies them. */
import type { Linkifier, RealmLinkifiersEvent, RegisterResponse } from '../api/model';
import { sameJson } from './same-json';

export interface LinkifiersState {
  list: readonly Linkifier[];
}

export function linkifiersFromSnapshot(register: RegisterResponse): LinkifiersState {
  return { list: register.realm_linkifiers ?? [] };
}

/** Every change sends the whole list. */
export function reduceLinkifiers(
  state: LinkifiersState,
  event: RealmLinkifiersEvent,
): LinkifiersState {
  return sameJson(state.list, event.realm_linkifiers) ? state : { list: event.realm_linkifiers };
}
