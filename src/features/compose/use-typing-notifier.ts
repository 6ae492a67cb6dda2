/**
 * Tells others that the user is typing, following the server's timing: a start when composing
 * begins and again every `started wait` while it goes on, a stop after `stopped wait` of quiet or
 * when the message is sent or the box goes away.
 */
import { useCallback, useEffect, useRef } from 'react';
import { useRealmLimits, useUserSetting } from '../../model/hooks';
import { useSetTypingStatus, type TypingOptions } from '../../queries/presence';

export type TypingTarget =
  { type: 'direct'; to: number[] } | { type: 'stream'; stream_id: number; topic: string } | null;

export function useTypingNotifier(target: TypingTarget) {
  const setTypingStatus = useSetTypingStatus();
  const realm = useRealmLimits();
  const sendDm = useUserSetting('send_private_typing_notifications') !== false;
  const sendStream = useUserSetting('send_stream_typing_notifications') !== false;
  const lastStart = useRef(0);
  const stopTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const activeTarget = useRef<TypingTarget>(null);

  const send = useCallback(
    (op: 'start' | 'stop', to: NonNullable<TypingTarget>) => {
      setTypingStatus({ op, ...to } as TypingOptions);
    },
    [setTypingStatus],
  );

  const stopped = useCallback(() => {
    if (stopTimer.current) clearTimeout(stopTimer.current);
    stopTimer.current = null;
    if (activeTarget.current) send('stop', activeTarget.current);
    activeTarget.current = null;
    lastStart.current = 0;
  }, [send]);

  const typed = useCallback(() => {
    if (!target || (target.type === 'direct' ? !sendDm : !sendStream)) return;
    const now = Date.now();
    if (activeTarget.current === null || now - lastStart.current > realm.typingStartedWaitMs) {
      send('start', target);
      activeTarget.current = target;
      lastStart.current = now;
    }
    if (stopTimer.current) clearTimeout(stopTimer.current);
    stopTimer.current = setTimeout(stopped, realm.typingStoppedWaitMs);
  }, [target, sendDm, sendStream, realm, send, stopped]);

  // A changed recipient or leaving the conversation ends typing there.
  const targetKey = JSON.stringify(target);
  useEffect(() => stopped, [targetKey, stopped]);

  return { typed, stopped };
}
