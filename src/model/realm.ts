/** Organization settings, keyed without the `realm_` prefix, exactly as the server names them. */
import type { RealmEvent, RegisterResponse } from '../api/model';

export interface RealmState {
  settings: Readonly<Record<string, unknown>>;
  maxMessageLength: number;
  maxTopicLength: number;
  /** the largest upload the server takes, in MiB; null when it did not say */
  maxFileUploadSizeMib: number | null;
  typingStartedWaitMs: number;
  typingStoppedWaitMs: number;
  typingExpiryMs: number;
  /** the server's default Jitsi Meet server, for organizations that name none */
  serverJitsiServerUrl: string | null;
}

/**
 * `realm_*` keys that are collections with events of their own (users, groups, linkifiers, ...),
 * not settings: keeping them here would let them go stale, since realm events never update them.
 */
const NOT_SETTINGS = new Set([
  'users',
  'non_active_users',
  'bots',
  'user_groups',
  'default_streams',
  'default_stream_groups',
  'linkifiers',
  'filters',
  'emoji',
  'playgrounds',
  'domains',
  'user_settings_defaults',
  'embedded_bots',
  'incoming_webhook_bots',
]);

export function realmFromSnapshot(register: RegisterResponse): RealmState {
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(register)) {
    if (!key.startsWith('realm_')) continue;
    const name = key.slice('realm_'.length);
    if (!NOT_SETTINGS.has(name)) settings[name] = value;
  }
  return {
    settings,
    maxMessageLength: register.max_message_length ?? 10000,
    maxTopicLength: register.max_topic_length ?? 60,
    maxFileUploadSizeMib: register.max_file_upload_size_mib ?? null,
    typingStartedWaitMs: register.server_typing_started_wait_period_milliseconds ?? 10000,
    typingStoppedWaitMs: register.server_typing_stopped_wait_period_milliseconds ?? 5000,
    typingExpiryMs: register.server_typing_started_expiry_period_milliseconds ?? 15000,
    serverJitsiServerUrl: register.server_jitsi_server_url ?? register.jitsi_server_url ?? null,
  };
}

export function reduceRealm(state: RealmState, event: RealmEvent): RealmState {
  // A deactivated organization refuses every later request (REALM_DEACTIVATED), and the poller
  // stops on that: nothing to keep here.
  if (event.op === 'deactivated') return state;
  const changes = event.op === 'update' ? { [event.property]: event.value } : event.data;
  const changed = Object.entries(changes).some(([key, value]) => state.settings[key] !== value);
  return changed ? { ...state, settings: { ...state.settings, ...changes } } : state;
}

export const realmName = (realm: RealmState) => String(realm.settings.name ?? '');
export const realmIconUrl = (realm: RealmState) =>
  typeof realm.settings.icon_url === 'string' ? realm.settings.icon_url : null;
export const mandatoryTopics = (realm: RealmState) => realm.settings.mandatory_topics === true;

/**
 * Where call links point, without a trailing slash: the organization's Jitsi Meet server or the
 * server's default. Null unless the organization's video call provider is Jitsi Meet: the others
 * (Zoom, BigBlueButton) need the server's OAuth flows, which this client does not offer.
 */
export function jitsiCallServer(realm: RealmState): string | null {
  const providers = realm.settings.available_video_chat_providers;
  const jitsi =
    typeof providers === 'object' && providers !== null
      ? (providers as Record<string, { id?: unknown } | undefined>).jitsi_meet
      : undefined;
  // The reference has numbered Jitsi Meet 1 since providers were numbered.
  const jitsiId = jitsi ? jitsi.id : providers === undefined ? 1 : undefined;
  if (jitsiId === undefined || realm.settings.video_chat_provider !== jitsiId) return null;
  const own = realm.settings.jitsi_server_url;
  const url = typeof own === 'string' && own !== '' ? own : realm.serverJitsiServerUrl;
  return url ? url.replace(/\/+$/, '') : null;
}
