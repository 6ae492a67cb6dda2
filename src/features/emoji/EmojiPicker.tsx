/**
 * The emoji picker, for compose and for reactions: a search box (names and aliases), jump links
 * to the categories, recently used emoji and the organization's custom emoji. Arrow keys move in
 * the grid, Enter picks, Escape closes; focus returns to where it came from.
 */
import {
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useRealmEmojiById } from '../../model/hooks';
import {
  buildEmojiSet,
  customEmoji,
  emojiGlyph,
  RECENT_CATEGORY,
  recentEmojiNames,
  rememberEmoji,
  searchEmoji,
  useUnicodeEmoji,
  type Emoji,
  type EmojiCategory,
} from './emoji-data';
import { useGridCursor } from './use-grid-cursor';

interface EmojiPickerProps {
  label: string;
  onPick(emoji: Emoji): void;
  onClose(): void;
  /** names shown as pressed, e.g. your own reactions */
  chosen?: ReadonlySet<string>;
  className?: string;
  style?: CSSProperties;
}

const POPULAR_CATEGORY = 'Popular';
const SEARCH_CATEGORY = 'Search results';
/** The reference app's popular emoji (1f44d, 1f389, 1f642, 2764, 1f6e0, 1f419), offered first. */
const POPULAR = ['+1', 'tada', 'smile', 'heart', 'working_on_it', 'octopus'];

/** A representative glyph for each category's jump link. */
const CATEGORY_ICONS: Record<string, string> = {
  [RECENT_CATEGORY]: '🕘',
  [POPULAR_CATEGORY]: '⭐',
  'Smileys & Emotion': '😀',
  'People & Body': '👋',
  'Animals & Nature': '🐻',
  'Food & Drink': '🍔',
  Activities: '⚽',
  'Travel & Places': '🚗',
  Objects: '💡',
  Symbols: '❤️',
  Flags: '🏁',
  Custom: '✨',
};

/** The key of each category's name in messages:emoji.category (categories are named in English). */
const CATEGORY_KEYS = {
  [SEARCH_CATEGORY]: 'searchResults',
  [RECENT_CATEGORY]: 'recent',
  [POPULAR_CATEGORY]: 'popular',
  'Smileys & Emotion': 'smileys',
  'People & Body': 'people',
  'Animals & Nature': 'animals',
  'Food & Drink': 'food',
  Activities: 'activities',
  'Travel & Places': 'travel',
  Objects: 'objects',
  Symbols: 'symbols',
  Flags: 'flags',
  Custom: 'custom',
} as const;

export const emojiLabel = (name: string) => name.replace(/_/g, ' ');

export function EmojiGlyph({ emoji }: { emoji: Emoji }) {
  return emoji.imageUrl ? (
    <img className="emoji-image" src={emoji.imageUrl} alt="" loading="lazy" />
  ) : (
    <span className="emoji-glyph">{emojiGlyph(emoji.code)}</span>
  );
}

/** A category's name in the reader's language; categories from elsewhere keep their own name. */
function useCategoryName() {
  const { t } = useTranslation('messages');
  return (name: string) =>
    name in CATEGORY_KEYS
      ? t(`emoji.category.${CATEGORY_KEYS[name as keyof typeof CATEGORY_KEYS]}`)
      : name;
}

/**
 * The sections shown: the search results while there is a query, otherwise recently used,
 * popular and then every category. `flat` is every shown emoji in order, as the grid counts them.
 */
function useEmojiSections(query: string) {
  const unicode = useUnicodeEmoji(true);
  const realmEmoji = useRealmEmojiById();
  const [recent] = useState(recentEmojiNames);

  const set = useMemo(
    () => buildEmojiSet(unicode ?? [], customEmoji(realmEmoji)),
    [unicode, realmEmoji],
  );
  const sections = useMemo((): EmojiCategory[] => {
    if (query.trim()) return [{ name: SEARCH_CATEGORY, emoji: searchEmoji(set, query, 200) }];
    const named = (names: readonly string[]) => names.flatMap((name) => set.byName.get(name) ?? []);
    const recentEmoji = named(recent);
    const popular = { name: POPULAR_CATEGORY, emoji: named(POPULAR) };
    return [
      ...(recentEmoji.length ? [{ name: RECENT_CATEGORY, emoji: recentEmoji }] : []),
      ...(popular.emoji.length ? [popular] : []),
      ...set.categories,
    ];
  }, [set, query, recent]);
  const flat = useMemo(() => sections.flatMap((s) => s.emoji), [sections]);
  return { loaded: Boolean(unicode), sections, flat };
}

/**
 * Focuses the search box on open and gives focus back to the opener on close; a mouse press
 * outside the picker closes it.
 */
function useFocusAndOutsideClose(
  root: RefObject<HTMLDivElement | null>,
  search: RefObject<HTMLInputElement | null>,
  onClose: () => void,
) {
  const openerRef = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    openerRef.current = opener;
    search.current?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, [search]);

  useEffect(() => {
    const outside = (event: MouseEvent) => {
      const target = event.target as Node;
      // The opener's own click toggles the picker; closing here would reopen it.
      if (root.current?.contains(target) || openerRef.current?.contains(target)) return;
      onClose();
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [root, onClose]);
}

/** Escape closes the picker; Tab and Shift+Tab wrap around inside it. */
function dialogKeys(root: RefObject<HTMLDivElement | null>, onClose: () => void) {
  return (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key === 'Tab') {
      // Keep focus inside the dialog.
      const focusable = [
        ...(root.current?.querySelectorAll<HTMLElement>('input, button:not([tabindex="-1"])') ??
          []),
      ];
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
    }
  };
}

export function EmojiPicker({
  label,
  onPick,
  onClose,
  chosen,
  className,
  style,
}: EmojiPickerProps) {
  const { t } = useTranslation('messages');
  const root = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  const { loaded, sections, flat } = useEmojiSections(query);
  const { activeIndex, setActive, focusEmoji, onGridKey } = useGridCursor(
    body,
    search,
    flat.length,
  );
  useFocusAndOutsideClose(root, search, onClose);

  const pick = (emoji: Emoji) => {
    rememberEmoji(emoji.name);
    onPick(emoji);
  };

  return (
    <div
      ref={root}
      role="dialog"
      aria-label={label}
      className={`emoji-picker ${className ?? ''}`}
      style={style}
      onKeyDown={dialogKeys(root, onClose)}
    >
      <div className="emoji-picker-search">
        <input
          ref={search}
          type="search"
          className="text-input"
          placeholder={t('emoji.search')}
          aria-label={t('emoji.search')}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
            if (body.current) body.current.scrollTop = 0;
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' && flat.length) {
              e.preventDefault();
              focusEmoji(activeIndex);
            } else if (e.key === 'Enter') {
              e.preventDefault();
              if (query.trim() && flat[0]) pick(flat[0]);
            }
          }}
        />
      </div>
      {/* Only once every category is there: a jump made before the standard emoji arrive would
          be undone when they push the later sections down. */}
      {loaded && !query.trim() && <CategoryLinks sections={sections} body={body} />}
      <div className="emoji-picker-body" ref={body} onKeyDown={onGridKey}>
        {!loaded && <p className="emoji-picker-note">{t('emoji.loading')}</p>}
        {loaded && flat.length === 0 && <p className="emoji-picker-note">{t('emoji.noMatch')}</p>}
        <EmojiSections
          sections={sections}
          activeIndex={activeIndex}
          chosen={chosen}
          onFocusEmoji={setActive}
          onPick={pick}
        />
      </div>
    </div>
  );
}

/** A jump link per category, scrolling the body to its section. */
function CategoryLinks({
  sections,
  body,
}: {
  sections: readonly EmojiCategory[];
  body: RefObject<HTMLDivElement | null>;
}) {
  const { t } = useTranslation('messages');
  const categoryName = useCategoryName();
  return (
    <nav className="emoji-picker-categories" aria-label={t('emoji.categories')}>
      {sections.map((section) => (
        <button
          key={section.name}
          type="button"
          className="emoji-picker-category"
          aria-label={categoryName(section.name)}
          title={categoryName(section.name)}
          onClick={() =>
            body.current
              ?.querySelector(`[data-category="${CSS.escape(section.name)}"]`)
              ?.scrollIntoView({ block: 'start' })
          }
        >
          {CATEGORY_ICONS[section.name] ?? '•'}
        </button>
      ))}
    </nav>
  );
}

/** Each section's heading and grid; emoji are numbered across sections for the keyboard cursor. */
function EmojiSections({
  sections,
  activeIndex,
  chosen,
  onFocusEmoji,
  onPick,
}: {
  sections: readonly EmojiCategory[];
  activeIndex: number;
  chosen: ReadonlySet<string> | undefined;
  onFocusEmoji: (index: number) => void;
  onPick: (emoji: Emoji) => void;
}) {
  const categoryName = useCategoryName();
  let index = 0;
  return sections.map((section) => (
    <section
      key={section.name}
      data-category={section.name}
      aria-label={categoryName(section.name)}
      className="emoji-picker-section"
    >
      {section.emoji.length > 0 && (
        <h3 className="emoji-picker-heading">{categoryName(section.name)}</h3>
      )}
      <div className="emoji-picker-grid">
        {section.emoji.map((emoji) => {
          const i = index++;
          const pressed = chosen?.has(emoji.name);
          return (
            <button
              key={`${emoji.kind}-${emoji.code}`}
              type="button"
              data-emoji-index={i}
              tabIndex={i === activeIndex ? 0 : -1}
              className={pressed ? 'emoji-choice emoji-choice-chosen' : 'emoji-choice'}
              aria-label={emojiLabel(emoji.name)}
              aria-pressed={chosen ? Boolean(pressed) : undefined}
              title={`:${emoji.name}:`}
              onFocus={() => onFocusEmoji(i)}
              onClick={() => onPick(emoji)}
            >
              <EmojiGlyph emoji={emoji} />
            </button>
          );
        })}
      </div>
    </section>
  ));
}
