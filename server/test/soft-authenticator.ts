import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A software WebAuthn authenticator for tests (issue 32, point 2): an ES256 key pair per credential, attestation
 * 'none' and assertions built by hand as a browser and a platform authenticator would, so the server's checks
 * run on real signatures. User presence and user verification are always reported.
 */

type Cbor = number | string | Uint8Array | Map<number | string, Cbor> | { [key: string]: Cbor };

/** The few CBOR types attestation needs: integers, byte and text strings, maps (RFC 8949). */
export function cbor(value: Cbor): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
    if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
    const out = Buffer.alloc(5);
    out[0] = (major << 5) | 26;
    out.writeUInt32BE(length, 1);
    return out;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([key, item]) => [cbor(key), cbor(item)])]);
}

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

export interface SoftCredential {
  id: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  userHandle: string;
  counter: number;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

interface RequestOptions {
  challenge: string;
  rpId?: string;
}

/** flags: UP (0x01) | UV (0x04), plus AT (0x40) when credential data follows. */
function authenticatorData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter >>> 0);
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  constructor(readonly origin: string) {}

  /** Answers registration options: a new credential (a new key; `id` random unless given), attestation 'none'. */
  create(options: CreationOptions, { counter = 0, id = randomBytes(32) }: { counter?: number; id?: Buffer } = {}) {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, Cbor>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, id, cbor(coseKey)]);
    const authData = authenticatorData(rpId, 0x45, counter, attested);
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.create',
      challenge: options.challenge,
      origin: this.origin,
      crossOrigin: false,
    });
    const credential = { id, privateKey, publicKey, userHandle: options.user.id, counter };
    this.credentials.push(credential);
    return {
      credential,
      response: {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientDataJSON),
          attestationObject: b64url(cbor({ fmt: 'none', attStmt: {}, authData })),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      },
    };
  }

  /**
   * Answers sign-in options with `credential` (the last one made by default); the counter grows by one unless
   * `counter` is given. `signWith` signs with another key (a forged answer).
   */
  get(
    options: RequestOptions,
    credential = this.credentials.at(-1)!,
    { counter, signWith, origin = this.origin }: { counter?: number; signWith?: KeyObject; origin?: string } = {},
  ) {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    credential.counter = counter ?? credential.counter + 1;
    const authData = authenticatorData(rpId, 0x05, credential.counter);
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.get',
      challenge: options.challenge,
      origin,
      crossOrigin: false,
    });
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientDataJSON)]),
      signWith ?? credential.privateKey,
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
    };
  }
}
