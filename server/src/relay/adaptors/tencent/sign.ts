import { createHash, createHmac } from 'node:crypto';

const algorithm = 'TC3-HMAC-SHA256';
const signedHeaders = 'content-type;host;x-tc-action';

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');
const hmac = (key: Buffer | string, value: string) => createHmac('sha256', key).update(value).digest();

export interface Tc3Input {
  secretId: string;
  secretKey: string;
  service: string;
  host: string;
  action: string;
  body: string;
  timestampSeconds: number;
}

/**
 * Tencent Cloud's TC3-HMAC-SHA256 `Authorization` value for a JSON POST to `/`.
 * https://cloud.tencent.com/document/api/1729/101843
 */
export function tc3Authorization(input: Tc3Input): string {
  const date = new Date(input.timestampSeconds * 1000).toISOString().slice(0, 10);
  const canonicalHeaders = `content-type:application/json\nhost:${input.host}\nx-tc-action:${input.action.toLowerCase()}\n`;
  const canonicalRequest = ['POST', '/', '', canonicalHeaders, signedHeaders, sha256Hex(input.body)].join('\n');
  const scope = `${date}/${input.service}/tc3_request`;
  const stringToSign = [algorithm, String(input.timestampSeconds), scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(`TC3${input.secretKey}`, date), input.service), 'tc3_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return `${algorithm} Credential=${input.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}
