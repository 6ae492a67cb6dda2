import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { User } from '../../api/model';
import { Avatar } from '../../components/Avatar';
import { SuggestionList } from '../../components/Combobox';
import { insertMention, matchUsers, mentionQueryAt, type MentionQuery } from './autocomplete';

interface MessageTextareaProps {
  value: string;
  onChange(value: string): void;
  onSubmit(): void;
  users: User[];
  maxLength: number;
  placeholder: string;
}

/** The message field: Enter sends, Shift+Enter breaks the line, `@` suggests people. */
export function MessageTextarea({
  value,
  onChange,
  onSubmit,
  users,
  maxLength,
  placeholder,
}: MessageTextareaProps) {
  const listId = useId();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [mention, setMention] = useState<MentionQuery | null>(null);
  const [active, setActive] = useState(0);
  const suggestions = useMemo(
    () =>
      mention
        ? matchUsers(users, mention.query, 6).map((u) => ({
            key: String(u.user_id),
            label: u.full_name,
            detail: u.email,
            decoration: <Avatar url={u.avatar_url} name={u.full_name} size={20} />,
          }))
        : [],
    [users, mention],
  );
  const activeIndex = Math.min(active, Math.max(0, suggestions.length - 1));

  const updateMention = (text: string, caret: number) => {
    setMention(mentionQueryAt(text, caret));
    setActive(0);
  };

  const pick = (userId: string) => {
    const element = textarea.current;
    const user = users.find((u) => String(u.user_id) === userId);
    if (!element || !mention || !user) return;
    const result = insertMention(value, mention, element.selectionStart, user);
    onChange(result.text);
    setMention(null);
    requestAnimationFrame(() => element.setSelectionRange(result.caret, result.caret));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (suggestions.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        setActive(
          (activeIndex + (event.key === 'ArrowDown' ? 1 : -1) + suggestions.length) %
            suggestions.length,
        );
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        pick(suggestions[activeIndex].key);
        return;
      }
      if (event.key === 'Escape') {
        event.stopPropagation();
        setMention(null);
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      onSubmit();
    }
  };

  const nearLimit = value.length > maxLength * 0.9;
  return (
    <div className="compose-message">
      <label htmlFor="compose-content" className="visually-hidden">
        Message
      </label>
      <SuggestionList
        id={listId}
        suggestions={suggestions}
        activeIndex={activeIndex}
        onPick={(s) => pick(s.key)}
      />
      <textarea
        id="compose-content"
        ref={textarea}
        className="text-input compose-textarea"
        value={value}
        placeholder={placeholder}
        maxLength={maxLength}
        rows={2}
        aria-autocomplete="list"
        aria-controls={listId}
        aria-activedescendant={suggestions.length > 0 ? `${listId}-${activeIndex}` : undefined}
        onChange={(e) => {
          onChange(e.target.value);
          updateMention(e.target.value, e.target.selectionStart);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setMention(null)}
      />
      {nearLimit && (
        <span className="compose-limit" aria-live="polite">
          {maxLength - value.length} characters left
        </span>
      )}
    </div>
  );
}
