/** The organization settings the channel screens decide permissions from. */
import { useRealmSetting } from '../../model/hooks';

export function useRealmSettings(): Record<string, unknown> {
  return {
    enable_spectator_access: useRealmSetting('enable_spectator_access'),
    create_public_stream_policy: useRealmSetting('create_public_stream_policy'),
    create_private_stream_policy: useRealmSetting('create_private_stream_policy'),
    create_web_public_stream_policy: useRealmSetting('create_web_public_stream_policy'),
    invite_to_stream_policy: useRealmSetting('invite_to_stream_policy'),
  };
}
