/** A budget's current period in the operator's time zone: its name (part of the counter's key) and its end. */
export interface BudgetPeriodSpan {
  key: string;
  endsAtMs: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock fields of an instant in a time zone. */
function wallClock(timeZone: string, ms: number) {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  const fields: Record<string, number> = {};
  for (const part of format.formatToParts(ms)) if (part.type !== 'literal') fields[part.type] = Number(part.value);
  return fields as { year: number; month: number; day: number; hour: number; minute: number; second: number };
}

/** The instant at which the zone's clock reads the given midnight (the zone's offset then, DST included). */
function midnightIn(timeZone: string, year: number, month: number, day: number): number {
  const asUtc = Date.UTC(year, month - 1, day);
  const clock = wallClock(timeZone, asUtc);
  const offset = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second) - asUtc;
  return asUtc - offset;
}

/** The last span found per period and zone, and when: reused until it ends (no Intl work on most calls). */
const lastSpans = new Map<string, { span: BudgetPeriodSpan; foundAtMs: number }>();

/**
 * The day, the week (Monday to Sunday, ISO) or the month that holds `nowMs` on the zone's clock: a budget's
 * spend counts within it and starts again at its end.
 */
export function budgetPeriodAt(period: string, timeZone: string, nowMs: number): BudgetPeriodSpan {
  const cacheKey = `${period}|${timeZone}`;
  const last = lastSpans.get(cacheKey);
  // Between when it was found and its end, the span holds; a clock set back finds it again.
  if (last && last.foundAtMs <= nowMs && nowMs < last.span.endsAtMs) return last.span;
  const span = findPeriod(period, timeZone, nowMs);
  if (lastSpans.size > 100) lastSpans.clear();
  lastSpans.set(cacheKey, { span, foundAtMs: nowMs });
  return span;
}

function findPeriod(period: string, timeZone: string, nowMs: number): BudgetPeriodSpan {
  const { year, month, day } = wallClock(timeZone, nowMs);
  if (period === 'month') {
    const next = month === 12 ? [year + 1, 1] : [year, month + 1];
    return { key: `${year}-${month}`, endsAtMs: midnightIn(timeZone, next[0]!, next[1]!, 1) };
  }
  if (period === 'week') {
    const weekday = (new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7; // Monday = 0
    const monday = new Date(Date.UTC(year, month - 1, day - weekday));
    const next = new Date(Date.UTC(year, month - 1, day - weekday + 7));
    return {
      key: `w${monday.getUTCFullYear()}-${monday.getUTCMonth() + 1}-${monday.getUTCDate()}`,
      endsAtMs: midnightIn(timeZone, next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate()),
    };
  }
  const next = new Date(Date.UTC(year, month - 1, day + 1));
  return {
    key: `${year}-${month}-${day}`,
    endsAtMs: midnightIn(timeZone, next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate()),
  };
}
