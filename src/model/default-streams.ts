/**
 * Default streams (new users join them) and default stream groups (offered at sign-up). Only
 * stream ids are kept: the streams themselves live in the subscriptions state, where stream
 * events keep them current.
 */
import type {
  DefaultStreamGroupsEvent,
  DefaultStreamsEvent,
  DefaultStreamGroup as WireGroup,
  RegisterResponse,
  Stream,
} from '../api/model';
import { sameJson } from './same-json';
import { insertAllSorted } from './sorted-ids';

export interface DefaultStreamGroup {
  id: number;
  name: string;
  description: string;
  /** ascending */
  streamIds: readonly number[];
}

export interface DefaultStreamsState {
  /** ascending */
  streamIds: readonly number[];
  groups: Readonly<Record<number, DefaultStreamGroup>>;
}

const idsOf = (streams: readonly Stream[]) =>
  insertAllSorted(
    [],
    streams.map((s) => s.stream_id),
  );

function groupsOf(wire: readonly WireGroup[]): Record<number, DefaultStreamGroup> {
  const groups: Record<number, DefaultStreamGroup> = {};
  for (const group of wire)
    groups[group.id] = {
      id: group.id,
      name: group.name,
      description: group.description,
      streamIds: idsOf(group.streams),
    };
  return groups;
}

export function defaultStreamsFromSnapshot(register: RegisterResponse): DefaultStreamsState {
  return {
    streamIds: idsOf(register.realm_default_streams ?? []),
    groups: groupsOf(register.realm_default_stream_groups ?? []),
  };
}

/** Both events carry the whole new list. */
export function reduceDefaultStreams(
  state: DefaultStreamsState,
  event: DefaultStreamsEvent | DefaultStreamGroupsEvent,
): DefaultStreamsState {
  if (event.type === 'default_streams') {
    const streamIds = idsOf(event.default_streams);
    return sameJson(streamIds, state.streamIds) ? state : { ...state, streamIds };
  }
  const groups = groupsOf(event.default_stream_groups);
  return sameJson(groups, state.groups) ? state : { ...state, groups };
}

export const isDefaultStream = (state: DefaultStreamsState, streamId: number) =>
  state.streamIds.includes(streamId);
