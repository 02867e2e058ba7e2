import { useCallback, useEffect, useRef, useState } from 'react';
import {
  fetchLogPage,
  fetchLogStat,
  fetchUsageSeries,
  type LogEntry,
  type LogFilters,
  type UsagePoint,
} from '../../api/log';
import { chartRange, type ChartRange } from './log-range';

export const LOG_PAGE_SIZE = 10;

/** Rows, the consumption sum and the usage series for the applied filters. */
export function useLogData(applied: LogFilters, admin: boolean) {
  const [rows, setRows] = useState<LogEntry[]>([]);
  const [page, setPage] = useState(0);
  const [loading, setLoading] = useState(false);
  const [stat, setStat] = useState<number | null>(null);
  const [series, setSeries] = useState<{ points: UsagePoint[]; range: ChartRange } | null>(null);
  // Keyset cursors: page index → the last id of the page above it, learnt as pages are visited. A page
  // reached by number (a jump) falls back to `p`.
  const cursors = useRef(new Map<number, number>());

  const loadPage = useCallback(
    async (pageIndex: number) => {
      setLoading(true);
      try {
        const cursor = cursors.current.get(pageIndex);
        const loaded =
          (await fetchLogPage(
            applied,
            pageIndex > 0 && cursor !== undefined ? { beforeId: cursor } : { page: pageIndex },
            admin,
          )) ?? [];
        const last = loaded.at(-1);
        if (last && loaded.length === LOG_PAGE_SIZE) cursors.current.set(pageIndex + 1, last.id);
        setRows(loaded);
        setPage(pageIndex);
      } catch {
        // shown by the common handler
      } finally {
        setLoading(false);
      }
    },
    [applied, admin],
  );

  useEffect(() => {
    cursors.current = new Map();
    void loadPage(0);
    fetchLogStat(applied, admin).then(
      (answer) => setStat(answer?.quota ?? 0),
      () => setStat(null),
    );
    const range = chartRange(applied.start_timestamp, applied.end_timestamp);
    fetchUsageSeries(
      { ...applied, start_timestamp: range.start, end_timestamp: range.end },
      admin,
      range.granularity,
    ).then(
      (points) => setSeries({ points: points ?? [], range }),
      () => setSeries({ points: [], range }),
    );
  }, [applied, admin, loadPage]);

  return { rows, page, loading, stat, series, hasMore: rows.length === LOG_PAGE_SIZE, goTo: loadPage };
}
