/** What one version of a message's edit history says happened, in words for the dialog. */
import type { MessageSnapshot } from '../../api/model/message-history';
import { i18n } from '../../i18n';

export interface VersionDescription {
  /** "Posted by", "Edited by", "Moved by" (followed by the person's name) */
  verb: string;
  contentEdited: boolean;
  topicChange: { from: string; to: string } | null;
  streamChange: { from: number; to: number | undefined } | null;
}

export function describeVersion(version: MessageSnapshot, first: boolean): VersionDescription {
  if (first)
    return {
      verb: i18n.t('messages:history.posted'),
      contentEdited: false,
      topicChange: null,
      streamChange: null,
    };
  const contentEdited = version.prev_content !== undefined;
  const topicChange =
    version.prev_topic !== undefined ? { from: version.prev_topic, to: version.topic } : null;
  const streamChange =
    version.prev_stream !== undefined ? { from: version.prev_stream, to: version.stream } : null;
  return {
    verb: contentEdited ? i18n.t('messages:history.edited') : i18n.t('messages:history.moved'),
    contentEdited,
    topicChange,
    streamChange,
  };
}
