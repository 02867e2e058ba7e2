/** The viewer's zone as an offset from UTC ("UTC+08:00"), which both the list and the CSV's times are in. */
export function utcZoneLabel(offsetMinutes = -new Date().getTimezoneOffset()): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const minutes = Math.abs(offsetMinutes);
  return `UTC${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
