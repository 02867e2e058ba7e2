import { randomInt } from 'node:crypto';

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** one-api's request id: local time YYYYMMDDhhmmss, a sub-second fragment, then 8 random digits. */
export function newRequestId(now = new Date()): string {
  const stamp =
    `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}` +
    `${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return `${stamp}${pad(now.getMilliseconds(), 3)}${pad(randomInt(100_000_000), 8)}`;
}
