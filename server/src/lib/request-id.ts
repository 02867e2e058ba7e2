import { randomInt } from 'node:crypto';

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** The YYYYMMDDhhmmss part, kept for the second it names: every request of that second shares it. */
let stamp = { second: -1, text: '' };

/** one-api's request id: local time YYYYMMDDhhmmss, a sub-second fragment, then 8 random digits. */
export function newRequestId(now = Date.now()): string {
  const second = Math.floor(now / 1000);
  if (second !== stamp.second) {
    const date = new Date(now);
    const text =
      `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}` +
      `${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
    stamp = { second, text };
  }
  return `${stamp.text}${pad(now - second * 1000, 3)}${pad(randomInt(100_000_000), 8)}`;
}
