import { randomBytes, randomInt, randomUUID } from 'node:crypto';

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

export const randomHex = (bytes: number) => randomBytes(bytes).toString('hex');
