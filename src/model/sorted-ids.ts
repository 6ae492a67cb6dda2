/** Helpers for ascending id lists that return the same array when nothing changes. */

export function insertSorted(ids: readonly number[], id: number): readonly number[] {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (ids[mid] < id) low = mid + 1;
    else high = mid;
  }
  if (ids[low] === id) return ids;
  return [...ids.slice(0, low), id, ...ids.slice(low)];
}

export function insertAllSorted(
  ids: readonly number[],
  added: Iterable<number>,
): readonly number[] {
  let result = ids;
  for (const id of added) result = insertSorted(result, id);
  return result;
}

export function removeIds(ids: readonly number[], removed: ReadonlySet<number>): readonly number[] {
  if (!ids.some((id) => removed.has(id))) return ids;
  return ids.filter((id) => !removed.has(id));
}
