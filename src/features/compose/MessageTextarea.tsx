import { useTranslation } from 'react-i18next';
import {
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type Ref,
  type RefObject,
} from 'react';
import { Avatar } from '../../components/Avatar';
import { SuggestionList, type Suggestion } from '../../components/Combobox';
import { applyCompletion, typeaheadTokenAt, type TypeaheadToken } from './typeahead';
import { useMessageTypeahead, type ComposePlace } from './use-message-typeahead';
import type { TypeaheadItem } from './mention-suggestions';

interface MessageTextareaProps {
  value: string;
  onChange(value: string): void;
  onSubmit(): void;
  place: ComposePlace;
  maxLength: number;
  placeholder: string;
  textareaRef?: Ref<HTMLTextAreaElement>;
}

function decoration(item: TypeaheadItem) {
  switch (item.completion.kind) {
    case 'user':
      return <Avatar url={item.avatarUrl ?? null} name={item.label} size={20} />;
    case 'emoji':
      return item.imageUrl ? (
        <img className="typeahead-emoji-image" src={item.imageUrl} alt="" />
      ) : (
        <span className="typeahead-emoji" aria-hidden="true">
          {item.glyph}
        </span>
      );
    case 'group':
      return (
        <span className="typeahead-icon" aria-hidden="true">
          @
        </span>
      );
    case 'wildcard':
      return (
        <span className="typeahead-icon" aria-hidden="true">
          @
        </span>
      );
    case 'channel':
    case 'topic':
      return (
        <span className="typeahead-icon" aria-hidden="true">
          #
        </span>
      );
  }
}

/**
 * The suggestion list under the textarea: the word being completed, the highlighted suggestion,
 * picking one (and putting the caret after it), and the keys the open list takes for itself.
 */
function useTextareaTypeahead(
  textarea: RefObject<HTMLTextAreaElement | null>,
  value: string,
  onChange: (value: string) => void,
  place: ComposePlace,
) {
  const [token, setToken] = useState<TypeaheadToken | null>(null);
  const [active, setActive] = useState(0);
  const pendingCaret = useRef<{ text: string; caret: number } | null>(null);
  const items = useMessageTypeahead(token, place);
  const suggestions = useMemo(
    (): Suggestion[] =>
      items.map((item) => ({
        key: item.key,
        label: item.label,
        detail: item.detail,
        decoration: decoration(item),
      })),
    [items],
  );
  const activeIndex = Math.min(active, Math.max(0, suggestions.length - 1));

  const updateToken = (text: string, caret: number) => {
    setToken(typeaheadTokenAt(text, caret));
    setActive(0);
  };

  const pick = (key: string) => {
    const element = textarea.current;
    const item = items.find((i) => i.key === key);
    if (!element || !token || !item) return;
    const result = applyCompletion(value, token, element.selectionStart, item.completion);
    pendingCaret.current = result;
    onChange(result.text);
    setToken(null);
  };

  // The caret goes after the completion as soon as the new text is on screen, before the next
  // key is handled (a frame later, fast typing would land before it).
  useLayoutEffect(() => {
    const pending = pendingCaret.current;
    const element = textarea.current;
    if (!pending || !element || element.value !== pending.text) return;
    pendingCaret.current = null;
    element.setSelectionRange(pending.caret, pending.caret);
  }, [value, textarea]);

  /** Handles a key meant for the open list; true when the textarea should not see it too. */
  const handleListKey = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (suggestions.length === 0) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setActive(
        (activeIndex + (event.key === 'ArrowDown' ? 1 : -1) + suggestions.length) %
          suggestions.length,
      );
      return true;
    }
    if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
      event.preventDefault();
      pick(suggestions[activeIndex].key);
      return true;
    }
    if (['ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown'].includes(event.key)) {
      // The caret leaves the word being completed.
      setToken(null);
    }
    if (event.key === 'Escape') {
      // Closes the list only: not the compose box, not the view.
      event.preventDefault();
      event.stopPropagation();
      setToken(null);
      return true;
    }
    return false;
  };

  const close = () => setToken(null);
  return { suggestions, activeIndex, updateToken, pick, close, handleListKey };
}

/**
 * The message field: Enter sends, Shift+Enter breaks the line; `@` suggests people, groups and
 * wildcards, `#` channels (then `>` topics), `:` emoji.
 */
export function MessageTextarea({
  value,
  onChange,
  onSubmit,
  place,
  maxLength,
  placeholder,
  textareaRef,
}: MessageTextareaProps) {
  const listId = useId();
  const textarea = useRef<HTMLTextAreaElement | null>(null);
  const { t } = useTranslation('compose');
  const { suggestions, activeIndex, updateToken, pick, close, handleListKey } =
    useTextareaTypeahead(textarea, value, onChange, place);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (handleListKey(event)) return;
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      onSubmit();
    }
  };

  const nearLimit = value.length > maxLength * 0.9;
  const open = suggestions.length > 0;
  return (
    <div className="compose-message">
      <label htmlFor="compose-content" className="visually-hidden">
        {t('message')}
      </label>
      <SuggestionList
        id={listId}
        suggestions={suggestions}
        activeIndex={activeIndex}
        onPick={(s) => pick(s.key)}
      />
      <textarea
        id="compose-content"
        ref={(element) => {
          textarea.current = element;
          if (typeof textareaRef === 'function') textareaRef(element);
          else if (textareaRef) textareaRef.current = element;
        }}
        className="text-input compose-textarea"
        value={value}
        placeholder={placeholder}
        maxLength={maxLength}
        rows={2}
        aria-autocomplete="list"
        aria-controls={listId}
        aria-activedescendant={open ? `${listId}-${activeIndex}` : undefined}
        onChange={(e) => {
          onChange(e.target.value);
          updateToken(e.target.value, e.target.selectionStart);
        }}
        onKeyDown={onKeyDown}
        onBlur={close}
        onClick={close}
      />
      {nearLimit && (
        <span className="compose-limit" aria-live="polite">
          {t('charactersLeft', { count: maxLength - value.length })}
        </span>
      )}
    </div>
  );
}
