import { randomBytes, randomFillSync, randomInt, randomUUID } from 'node:crypto';

const alphanumeric = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Random string over [0-9a-zA-Z], from a cryptographic source. */
export function randomAlphanumeric(length: number): string {
  let result = '';
  for (let index = 0; index < length; index++) result += alphanumeric[randomInt(alphanumeric.length)];
  return result;
}

/** A UUID without dashes: 32 lowercase hex characters (access tokens, redemption codes). */
export const dashlessUuid = () => randomUUID().replaceAll('-', '');

/**
 * A relay key as one-api makes it: 16 alphanumerics then a dashless UUID whose even-index letters are
 * upper-cased, 48 characters, stored without the `sk-` prefix.
 */
export function generateTokenKey(): string {
  const uuid = [...dashlessUuid()].map((char, index) => (index % 2 === 0 ? char.toUpperCase() : char)).join('');
  return randomAlphanumeric(16) + uuid;
}

/**
 * Random bytes drawn from a pool filled 4 KiB at a time: one `randomBytes` call per id cost the relay's calls
 * about 10 µs each on the reference machine (a Responses stream makes two ids). Each byte is used once.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

/** `bytes` random bytes as hex, from a cryptographic source. */
export function randomHex(bytes: number): string {
  if (bytes > pool.length) return randomBytes(bytes).toString('hex');
  if (poolOffset + bytes > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const hex = pool.toString('hex', poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return hex;
}
