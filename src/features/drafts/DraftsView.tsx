import { Link } from 'react-router';
import { useStore } from 'zustand';
import type { Draft } from '../../api/model';
import { EmptyState } from '../../components/StatePanel';
import { useServerDrafts, useStreamsById, useUsersById } from '../../model/hooks';
import { sortedDrafts } from '../../model/drafts';
import { dmNarrow, narrowFromKey, narrowToUrl, topicNarrow, type Narrow } from '../../narrow';
import { useDeleteDraft } from '../../queries/drafts';
import { useSession } from '../app/session-context';
import { dmConversationName } from '../sidebar/conversation-names';

/** Unsent messages: those typed here (kept in this browser) and those synced by the server. */
export function DraftsView() {
  const session = useSession();
  // A refused deletion leaves the draft listed, which says enough.
  const { mutate: deleteServerDraft } = useDeleteDraft();
  const local = useStore(session.composeDrafts, (s) => s.byConversation);
  const serverDrafts = useServerDrafts();
  const localEntries = Object.entries(local).filter(([, draft]) => draft.content.trim());
  const synced = sortedDrafts({ byId: serverDrafts });

  return (
    <section className="view-page" aria-labelledby="drafts-title">
      <header className="narrow-header">
        <div className="narrow-titles">
          <h1 id="drafts-title">Drafts</h1>
        </div>
      </header>
      <div className="view-scroll">
        {localEntries.length === 0 && synced.length === 0 ? (
          <EmptyState title="No drafts">
            Messages you start writing and do not send are kept here.
          </EmptyState>
        ) : (
          <ul className="draft-list">
            {localEntries.map(([key, draft]) => (
              <DraftRow
                key={`local:${key}`}
                narrow={narrowFromKey(key)}
                content={draft.content}
                onDelete={() => session.composeDrafts.getState().draftSent(key)}
              />
            ))}
            {synced.map((draft) => (
              <DraftRow
                key={`server:${draft.id}`}
                narrow={narrowOfDraft(draft)}
                content={draft.content}
                onDelete={() => deleteServerDraft(draft.id!)}
              />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function narrowOfDraft(draft: Draft): Narrow | null {
  if (draft.type === 'stream' && draft.to.length === 1)
    return topicNarrow(draft.to[0], draft.topic);
  if (draft.type === 'private' && draft.to.length > 0) return dmNarrow(draft.to);
  return null;
}

function DraftRow({
  narrow,
  content,
  onDelete,
}: {
  narrow: Narrow | null;
  content: string;
  onDelete(): void;
}) {
  const streams = useStreamsById();
  const users = useUsersById();
  let title = 'Unaddressed draft';
  let url: string | null = null;
  if (narrow?.kind === 'topic' || narrow?.kind === 'stream') {
    const name = streams[narrow.streamId]?.name ?? 'Unknown channel';
    title = narrow.kind === 'topic' ? `${name} › ${narrow.topic || '(no topic)'}` : name;
    url = narrowToUrl(narrow, name);
  } else if (narrow?.kind === 'dm') {
    title = dmConversationName(narrow.userIds, users);
    url = narrowToUrl(narrow);
  } else if (narrow) {
    url = narrowToUrl(narrow);
    title = narrow.kind === 'feed' ? 'Combined feed' : narrow.kind;
  }
  return (
    <li className="draft-row">
      <div className="draft-main">
        <h2 className="draft-title">{url ? <Link to={url}>{title}</Link> : title}</h2>
        <p className="draft-content">{content}</p>
      </div>
      <button
        type="button"
        className="button button-small button-quiet"
        onClick={onDelete}
        aria-label={`Delete draft to ${title}`}
      >
        Delete
      </button>
    </li>
  );
}
