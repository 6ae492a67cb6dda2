/**
 * A labelled text input with a list of suggestions (the ARIA combobox pattern): arrow keys move,
 * Enter or Tab picks, Escape closes.
 */
import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface Suggestion {
  key: string;
  label: string;
  detail?: string;
  decoration?: ReactNode;
}

interface ComboboxProps {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  suggestions: Suggestion[];
  onPick(suggestion: Suggestion): void;
  placeholder?: string;
  maxLength?: number;
  className?: string;
  onKeyDown?(event: KeyboardEvent<HTMLInputElement>): void;
  /** shown inside the field before the text, e.g. chips of chosen recipients */
  adornment?: ReactNode;
}

export function Combobox(props: ComboboxProps) {
  const { id, label, value, onChange, suggestions, onPick, placeholder, maxLength, className } =
    props;
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const visible = open && suggestions.length > 0;
  const activeIndex = Math.min(active, suggestions.length - 1);

  const pick = (suggestion: Suggestion) => {
    onPick(suggestion);
    setOpen(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (visible && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + step + suggestions.length) % suggestions.length);
      return;
    }
    if (visible && (event.key === 'Enter' || event.key === 'Tab') && suggestions[activeIndex]) {
      event.preventDefault();
      pick(suggestions[activeIndex]);
      return;
    }
    if (visible && event.key === 'Escape') {
      event.stopPropagation();
      setOpen(false);
      return;
    }
    props.onKeyDown?.(event);
  };

  return (
    <div className={`combobox ${className ?? ''}`}>
      <label htmlFor={id} className="compose-label">
        {label}
      </label>
      <div className={props.adornment ? 'combobox-field combobox-field-adorned' : 'combobox-field'}>
        {props.adornment}
        <input
          id={id}
          className={props.adornment ? 'combobox-bare-input' : 'text-input'}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={visible}
          aria-controls={listId}
          aria-activedescendant={visible ? `${listId}-${activeIndex}` : undefined}
          autoComplete="off"
          value={value}
          placeholder={placeholder}
          maxLength={maxLength}
          onChange={(e) => {
            onChange(e.target.value);
            setOpen(true);
            setActive(0);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
        />
      </div>
      <SuggestionList
        id={listId}
        suggestions={visible ? suggestions : []}
        activeIndex={activeIndex}
        onPick={pick}
      />
    </div>
  );
}

export function SuggestionList({
  id,
  suggestions,
  activeIndex,
  onPick,
}: {
  id: string;
  suggestions: Suggestion[];
  activeIndex: number;
  onPick(suggestion: Suggestion): void;
}) {
  return (
    <ul id={id} role="listbox" className="suggestions" hidden={suggestions.length === 0}>
      {suggestions.map((suggestion, index) => (
        <li
          key={suggestion.key}
          id={`${id}-${index}`}
          role="option"
          aria-selected={index === activeIndex}
          className={index === activeIndex ? 'suggestion suggestion-active' : 'suggestion'}
          // mousedown, not click: the input must not lose focus before the pick lands.
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(suggestion);
          }}
        >
          {suggestion.decoration}
          <span className="suggestion-label">{suggestion.label}</span>
          {suggestion.detail && <span className="suggestion-detail">{suggestion.detail}</span>}
        </li>
      ))}
    </ul>
  );
}
