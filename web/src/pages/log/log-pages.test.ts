import { describe, expect, it } from 'vitest';
import { exportPercent } from './log-download';
import { lastPageIndex, lastPageRows, neighbourCursors, pagePosition } from './log-pages';
import { utcZoneLabel } from './log-zone';

const rows = (ids: number[]) => ids.map((id) => ({ id }));

describe('log pages', () => {
  it('knows the last page of a total', () => {
    expect(lastPageIndex(0)).toBe(0);
    expect(lastPageIndex(10)).toBe(0);
    expect(lastPageIndex(11)).toBe(1);
    expect(lastPageIndex(305)).toBe(30);
  });

  it('reads the last page from the oldest end, others by cursor or number', () => {
    expect(pagePosition(30, 30, { beforeId: 7 })).toEqual({ last: true });
    expect(pagePosition(0, 0, undefined)).toEqual({ page: 0 });
    expect(pagePosition(29, 30, { afterId: 41 })).toEqual({ afterId: 41 });
    expect(pagePosition(12, null, undefined)).toEqual({ page: 12 });
  });

  it('keeps only the rows left for the last page', () => {
    // 305 logs: the last page holds the 5 oldest of the 10 oldest the server sent (newest first).
    expect(lastPageRows(rows([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]), 305)).toEqual(rows([5, 4, 3, 2, 1]));
    expect(lastPageRows(rows([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]), 300)).toHaveLength(10);
  });

  it('learns the neighbours of a loaded page', () => {
    const full = rows([50, 49, 48, 47, 46, 45, 44, 43, 42, 41]);
    expect(neighbourCursors(3, full)).toEqual([
      [4, { beforeId: 41 }],
      [2, { afterId: 50 }],
    ]);
    expect(neighbourCursors(0, rows([3, 2]))).toEqual([]);
  });

  it('says the zone and the export share', () => {
    expect(utcZoneLabel(480)).toBe('UTC+08:00');
    expect(utcZoneLabel(-210)).toBe('UTC-03:30');
    expect(utcZoneLabel(0)).toBe('UTC+00:00');
    expect(exportPercent(50, 200)).toBe(25);
    expect(exportPercent(210, 200)).toBe(100);
  });
});
