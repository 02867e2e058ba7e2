import type { LogPagePosition } from '../../api/log';
import { SERVER_PAGE_SIZE } from '../../hooks/use-paged-list';

/** The index (from 0) of the last page of `total` rows. */
export const lastPageIndex = (total: number): number => Math.max(0, Math.ceil(total / SERVER_PAGE_SIZE) - 1);

/**
 * Where to read a page: a cursor learnt from a neighbour when there is one; the last page of an exact total
 * from the oldest end (no offset walk over every row); else its number.
 */
export function pagePosition(
  page: number,
  lastPage: number | null,
  cursor: LogPagePosition | undefined,
): LogPagePosition {
  if (page > 0 && page === lastPage) return { last: true };
  if (page > 0 && cursor) return cursor;
  return { page };
}

/**
 * The rows of the last page out of the oldest page the server sent (newest first): the last page holds
 * only what is left after the full pages above it, the oldest of those rows.
 */
export function lastPageRows<T>(rows: readonly T[], total: number): T[] {
  const left = total - lastPageIndex(total) * SERVER_PAGE_SIZE;
  return rows.slice(Math.max(0, rows.length - left));
}

/** The cursors a loaded page teaches: its neighbours start next to its last and first rows. */
export function neighbourCursors(
  page: number,
  rows: readonly { id: number }[],
): Array<[page: number, position: LogPagePosition]> {
  const first = rows[0];
  const last = rows.at(-1);
  const learnt: Array<[number, LogPagePosition]> = [];
  if (last && rows.length === SERVER_PAGE_SIZE) learnt.push([page + 1, { beforeId: last.id }]);
  if (first && page > 0) learnt.push([page - 1, { afterId: first.id }]);
  return learnt;
}
