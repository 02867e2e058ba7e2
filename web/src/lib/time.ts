const pad = (value: number): string => String(value).padStart(2, '0');

/**
 * Formats a Unix timestamp in seconds as local 'YYYY-MM-DD HH:mm:ss'.
 * Returns null for values that are not a usable time, so the caller can show the 'invalid time' label.
 */
export function formatTimestamp(seconds: number | null | undefined): string | null {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return null;
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime())) return null;
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** Current time in Unix seconds. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
