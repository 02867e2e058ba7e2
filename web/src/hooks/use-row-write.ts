import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useCallback } from 'react';
import { queryKeys, type Resource } from '../lib/query-keys';

/** A write to one listed row; it answers the row's new fields, or null when the row is gone. */
type RowWrite<T> = () => Promise<Partial<T> | null>;

/** Runs a write to the row with this id (see useRowWrite). */
export type RowWriter<T> = (id: number, write: RowWrite<T>) => void;

type CachedRows<T> = T[] | InfiniteData<T[]> | undefined;

/** Rows with one row changed in place, or removed (null). */
function replaceRow<T extends { id: number }>(rows: T[], id: number, change: Partial<T> | null): T[] {
  return change === null
    ? rows.filter((row) => row.id !== id)
    : rows.map((row) => (row.id === id ? { ...row, ...change } : row));
}

function replaceCachedRow<T extends { id: number }>(data: CachedRows<T>, id: number, change: Partial<T> | null) {
  if (!data) return data;
  if (Array.isArray(data)) return replaceRow(data, id, change);
  return { ...data, pages: data.pages.map((page) => replaceRow(page, id, change)) };
}

/**
 * Runs writes to rows of a resource: each change shows in the cached lists at once, then everything read from
 * the resource is read again, so the lists show the server's state (read-your-writes). Failures are shown by
 * the API client.
 */
export function useRowWrite<T extends { id: number }>(resource: Resource): RowWriter<T> {
  const queryClient = useQueryClient();
  const { mutate } = useMutation({
    mutationFn: ({ write }: { id: number; write: RowWrite<T> }) => write(),
    onSuccess: (change, { id }) => {
      queryClient.setQueriesData<CachedRows<T>>({ queryKey: queryKeys.lists(resource) }, (data) =>
        replaceCachedRow(data, id, change),
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.all(resource) }),
  });
  return useCallback((id, write) => mutate({ id, write }), [mutate]);
}
