import type { UpstreamErrorBody } from './adaptor.js';

/** Status codes after which another channel may well succeed (STYLE §3.10). */
export const isRetryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

/**
 * A failure of the upstream (or of reaching it). Keeps the status, the OpenAI-shaped error the client will
 * see, and whether another channel may be tried. Never carries keys: messages come from upstream bodies or
 * from our own text.
 */
export class UpstreamError extends Error {
  readonly retryable: boolean;

  constructor(
    readonly body: UpstreamErrorBody,
    options: { retryable?: boolean; cause?: unknown } = {},
  ) {
    super(body.message, { cause: options.cause });
    this.retryable = options.retryable ?? isRetryableStatus(body.status);
  }

  get status(): number {
    return this.body.status;
  }
}

export const isUpstreamError = (error: unknown): error is UpstreamError => error instanceof UpstreamError;

/** A failure before any answer (connection refused, reset, timeout): retryable, status 500 like one-api's do_request_failed. */
export function transportError(error: unknown, timedOut: boolean): UpstreamError {
  const reason = error instanceof Error ? error.message : String(error);
  return new UpstreamError(
    {
      status: timedOut ? 504 : 500,
      message: timedOut ? `upstream timed out: ${reason}` : `do request failed: ${reason}`,
      type: 'one_api_error',
      param: null,
      code: timedOut ? 'upstream_timeout' : 'do_request_failed',
    },
    { retryable: true, cause: error },
  );
}

/** An upstream answer we cannot read (HTML page, cut JSON, wrong content type): treated like a 502. */
export function unreadableAnswer(detail: string): UpstreamError {
  return new UpstreamError(
    {
      status: 502,
      message: `upstream returned an unreadable answer: ${detail}`,
      type: 'upstream_error',
      param: null,
      code: 'bad_response_body',
    },
    { retryable: true },
  );
}

/** What stands in for a secret or an internal address in an error passed on to a client. */
export const redactedMark = '[redacted]';

// The value after a credential header's name, as an upstream may echo it (`"x-api-key": "…"`, `Authorization: Bearer …`).
const credentialHeader =
  /\b(authorization|proxy-authorization|x-api-key|api-key|x-goog-api-key)(["']?\s*[:=]\s*["']?)(?:(?:bearer|basic)\s+)?[^\s"',;}]+/gi;
const bearerValue = /\bBearer\s+[\w.~+/=-]{8,}/gi;
// OpenAI-style secret keys (sk-…, sk-proj-…, sk-ant-…) and Google API keys.
const secretLooking = /\b(?:sk-[\w-]{8,}|AIza[\w-]{30,})/g;
const anyUrl = /\b(?:https?|wss?):\/\/[^\s"'<>()\\]+/gi;
const ipv4WithPort = /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\b/g;

/** True for a host that only makes sense inside a deployment: loopback, private ranges, single labels, .internal … */
export function isInternalHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (name.includes(':'))
    return name === '::1' || /^(?:fc|fd|fe8|fe9|fea|feb)/.test(name) || name.startsWith('::ffff:');
  const octets = name.split('.').map(Number);
  if (octets.length === 4 && octets.every((octet) => Number.isInteger(octet) && octet >= 0 && octet <= 255)) {
    const [first = 0, second = 0] = octets;
    return (
      first === 10 ||
      first === 127 ||
      first === 0 ||
      (first === 172 && second >= 16 && second <= 31) ||
      (first === 192 && second === 168) ||
      (first === 169 && second === 254) ||
      (first === 100 && second >= 64 && second <= 127)
    );
  }
  return (
    !name.includes('.') || /\.(?:internal|local|localdomain|lan|intranet|corp|home|svc|cluster\.local)$/.test(name)
  );
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

/**
 * The literal strings of a channel that must never reach a client: its key whole and each part of it (lines,
 * `AK|SK|region`, comma lists; parts under 6 characters say nothing and would blank common words), and its base
 * URL with its host. Longest first, so a part never leaves a piece of a longer secret behind.
 */
export function channelSecrets(channel: { key: string; baseUrl: string }): string[] {
  const secrets = new Set<string>();
  const key = channel.key.trim();
  for (const candidate of [key, key.replace(/^Bearer\s+/i, ''), ...key.split(/[\n|,]/)]) {
    const part = candidate.trim();
    if (part.length >= 6) secrets.add(part);
  }
  const baseUrl = channel.baseUrl.trim().replace(/\/+$/, '');
  if (baseUrl) {
    secrets.add(baseUrl);
    try {
      const url = new URL(baseUrl);
      secrets.add(url.host);
      if (url.hostname.length >= 4) secrets.add(url.hostname);
    } catch {
      // not a URL: the literal string above is all there is
    }
  }
  return [...secrets].sort((left, right) => right.length - left.length);
}

/**
 * Replaces in `text` the channel's literal secrets, credential header values, `sk-…`-looking keys, internal URLs
 * and private addresses with `[redacted]`. For error texts only: it scans the whole string several times.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) if (result.includes(secret)) result = result.split(secret).join(redactedMark);
  return result
    .replace(credentialHeader, `$1$2${redactedMark}`)
    .replace(bearerValue, `Bearer ${redactedMark}`)
    .replace(secretLooking, redactedMark)
    .replace(anyUrl, (url) => {
      const host = hostOf(url);
      return host === undefined || isInternalHost(host) ? redactedMark : url;
    })
    .replace(ipv4WithPort, (address) => (isInternalHost(address.split(':')[0] ?? '') ? redactedMark : address));
}

/**
 * The same failure with the channel's secrets and internal addresses taken out of every text the client
 * will see (upstreams echo keys and URLs in their errors). Runs once per failed attempt, never on success.
 */
export function redactUpstreamError(error: UpstreamError, channel: { key: string; baseUrl: string }): UpstreamError {
  const secrets = channelSecrets(channel);
  const redact = (text: string) => redactSecrets(text, secrets);
  const { body } = error;
  const redacted: UpstreamErrorBody = {
    ...body,
    message: redact(body.message),
    type: redact(body.type),
    param: body.param === null ? null : redact(body.param),
    code: body.code === null ? null : redact(body.code),
  };
  if (
    redacted.message === body.message &&
    redacted.type === body.type &&
    redacted.param === body.param &&
    redacted.code === body.code
  )
    return error;
  return new UpstreamError(redacted, { retryable: error.retryable, cause: error.cause });
}
