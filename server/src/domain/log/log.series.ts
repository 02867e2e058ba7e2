import type { Db } from '../../db/tables.js';
import { consumptionSeries, type UsagePoint } from './log-rollup.js';
import type { LogFilters } from './log.repository.js';

/** Bucket widths of the usage chart. */
export const seriesGranularitySeconds = { hour: 3600, day: 86_400 } as const;
export type SeriesGranularity = keyof typeof seriesGranularitySeconds;

export type { UsagePoint };

/**
 * Consumption per time bucket and model over the consume logs matching the filters, from the hourly
 * rollups (log-rollup.ts); `utcOffsetSeconds` moves day boundaries to the viewer's zone.
 */
export function usageSeries(
  db: Db,
  filters: LogFilters & { startTimestamp: number; endTimestamp: number },
  granularity: SeriesGranularity,
  utcOffsetSeconds = 0,
): Promise<UsagePoint[]> {
  return consumptionSeries(db, filters, seriesGranularitySeconds[granularity], utcOffsetSeconds);
}
