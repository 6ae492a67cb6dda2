import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { selectedMessageIn, useMessageCursor } from '../../model/message-cursor';
import { narrowKey } from '../../narrow';
import { useStreamsById } from '../../model/hooks';
import { useSession } from '../../model/session-context';
import { urlAfterMove } from './follow-move';

/** Takes the reader along when the topic on screen is renamed or moved (see urlAfterMove). */
export function useFollowMovedTopics() {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const streams = useStreamsById();
  // The latest values, read when an event arrives, without resubscribing at every navigation.
  const latest = useRef({ pathname: location.pathname, streams });
  useEffect(() => {
    latest.current = { pathname: location.pathname, streams };
  }, [location.pathname, streams]);

  useEffect(() => {
    if (session.spectator) return;
    return session.onEvents((events) => {
      for (const event of events) {
        if (event.type !== 'update_message') continue;
        const { pathname, streams } = latest.current;
        const cursor = useMessageCursor.getState();
        const next = urlAfterMove(
          pathname,
          event,
          (narrow) => selectedMessageIn(cursor, narrowKey(narrow)),
          (id) => streams[id]?.name,
        );
        if (next) {
          latest.current = { ...latest.current, pathname: next };
          navigate(next, { replace: true });
        }
      }
    });
  }, [session, navigate]);
}
