/** A typeahead over the organization's active people, for adding them to a group. */
import { useMemo, useState } from 'react';
import { Avatar } from '../../components/Avatar';
import { Combobox, type Suggestion } from '../../components/Combobox';
import { useActiveUsers } from '../../model/hooks';

const MAX_SUGGESTIONS = 8;

export function PersonPicker({
  id,
  label,
  placeholder,
  exclude,
  onPick,
}: {
  id: string;
  label: string;
  placeholder: string;
  /** people already chosen or in the group */
  exclude: readonly number[];
  onPick(userId: number): void;
}) {
  const people = useActiveUsers();
  const [query, setQuery] = useState('');
  const suggestions = useMemo((): Suggestion[] => {
    const needle = query.trim().toLowerCase();
    if (!needle) return [];
    const excluded = new Set(exclude);
    return people
      .filter((person) => !excluded.has(person.user_id))
      .filter(
        (person) =>
          person.full_name.toLowerCase().includes(needle) ||
          person.email.toLowerCase().includes(needle),
      )
      .slice(0, MAX_SUGGESTIONS)
      .map((person) => ({
        key: String(person.user_id),
        label: person.full_name,
        detail: person.email,
        decoration: <Avatar url={person.avatar_url} name={person.full_name} size={20} />,
      }));
  }, [people, exclude, query]);

  return (
    <Combobox
      id={id}
      label={label}
      placeholder={placeholder}
      className="groups-picker"
      value={query}
      onChange={setQuery}
      suggestions={suggestions}
      onPick={(suggestion) => {
        onPick(Number(suggestion.key));
        setQuery('');
      }}
    />
  );
}
