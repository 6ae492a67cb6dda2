import { useEffect, useState, type FormEvent } from 'react';
import type { Stream } from '../../api/model';
import { useUpdateChannel } from '../../queries/channels';

/**
 * The name and description being edited, and a save that sends only what changed. Another
 * window's change arrives by event: show it unless this one is being edited.
 */
export function useNameAndDescriptionDraft(stream: Stream) {
  const save = useUpdateChannel(stream.stream_id);
  const [name, setName] = useState(stream.name);
  const [description, setDescription] = useState(stream.description);
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (!editing) {
      setName(stream.name);
      setDescription(stream.description);
    }
  }, [stream.name, stream.description, editing]);

  const changed = name.trim() !== stream.name || description !== stream.description;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || !changed) return;
    save.mutate(
      {
        new_name: name.trim() !== stream.name ? name.trim() : undefined,
        description: description !== stream.description ? description : undefined,
      },
      { onSuccess: () => setEditing(false) },
    );
  };
  const discard = () => {
    setEditing(false);
    setName(stream.name);
    setDescription(stream.description);
  };

  return {
    save,
    name,
    setName,
    description,
    setDescription,
    changed,
    startEditing: () => setEditing(true),
    submit,
    discard,
  };
}
