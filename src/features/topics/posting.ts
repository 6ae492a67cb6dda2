import type { Stream } from '../../api/model';
import { ROLE } from '../../api/model/user';

/**
 * Whether messages may be moved into a channel: moving there is posting there, so its posting
 * policy applies (`stream_post_policy`: 1 anyone, 2 administrators, 3 full members, 4 moderators).
 */
export function mayPostTo(
  stream: Pick<Stream, 'stream_post_policy' | 'is_archived'>,
  role: number,
) {
  if (stream.is_archived) return false;
  switch (stream.stream_post_policy) {
    case 2:
      return role <= ROLE.ADMINISTRATOR;
    case 3:
      return role <= ROLE.MEMBER;
    case 4:
      return role <= ROLE.MODERATOR;
    default:
      return true;
  }
}
