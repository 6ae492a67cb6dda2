/** Sending and scheduling: where the message goes, what is missing, and clearing the box after. */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../i18n';
import { useOwnUserId, useRealmSetting, useScheduledMessages } from '../../model/hooks';
import { sendFromCompose } from '../../model/outbox-sender';
import { useScheduleMessage } from '../../queries/scheduled';
import { useSession } from '../../model/session-context';
import { scheduledFor } from '../scheduled/schedule-times';
import { resolveDestination } from './compose-target';
import type { ComposeFields } from './use-compose-fields';

function formatScheduledTime(at: Date): string {
  return new Intl.DateTimeFormat(currentLocale(), {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
  }).format(at);
}

/** How many scheduled messages wait for the conversation being written to. */
function useScheduledHere(fields: ComposeFields): number {
  const ownUserId = useOwnUserId();
  const scheduledById = useScheduledMessages();
  const { mode, stream, streamName, topic, recipients } = fields;
  const target = resolveDestination({
    mode,
    stream,
    streamName,
    topic,
    recipients,
    mandatoryTopics: false,
  });
  const destination = typeof target === 'string' ? null : target;
  return Object.values(scheduledById).filter((m) => scheduledFor(m, destination, ownUserId)).length;
}

export function useComposeSend(
  fields: ComposeFields,
  setProblem: (problem: string | null) => void,
  /** the message has left compose: sent, or scheduled */
  cleared: () => void,
) {
  const { t } = useTranslation('compose');
  const session = useSession();
  const mandatoryTopics = useRealmSetting('mandatory_topics') === true;
  const scheduleMessage = useScheduleMessage();
  const [scheduling, setScheduling] = useState(false);
  const [scheduledNote, setScheduledNote] = useState<string | null>(null);
  const scheduledHere = useScheduledHere(fields);
  const { mode, stream, streamName, topic, recipients, content } = fields;

  /** Where the message goes, or null after saying what is missing. */
  const destination = () => {
    const target = resolveDestination({
      mode,
      stream,
      streamName,
      topic,
      recipients,
      mandatoryTopics,
    });
    if (typeof target === 'string') {
      setProblem(target);
      return null;
    }
    setProblem(null);
    return target;
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!content.trim()) return;
    const target = destination();
    if (!target) return;
    setScheduledNote(null);
    sendFromCompose(session, target, content);
    cleared();
  };

  const schedule = async (at: Date) => {
    const target = destination();
    if (!target) {
      setScheduling(false);
      return;
    }
    await scheduleMessage.mutateAsync({
      ...(target.type === 'stream'
        ? { type: 'stream' as const, to: target.streamId, topic: target.topic }
        : { type: 'direct' as const, to: target.userIds }),
      content,
      scheduled_delivery_timestamp: Math.floor(at.getTime() / 1000),
    });
    cleared();
    setScheduledNote(t('scheduledFor', { time: formatScheduledTime(at) }));
  };

  const openSchedule = () => {
    if (destination()) setScheduling(true);
  };

  return {
    submit,
    schedule,
    scheduling,
    openSchedule,
    closeSchedule: () => setScheduling(false),
    scheduledNote,
    scheduledHere,
  };
}

export type ComposeSend = ReturnType<typeof useComposeSend>;
