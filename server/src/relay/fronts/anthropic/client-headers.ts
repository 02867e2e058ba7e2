import type { IncomingHttpHeaders } from 'node:http';

/** The Anthropic headers of a front client that a Claude upstream should see. */
export interface AnthropicClientHeaders {
  betas?: string[];
  version?: string;
}

/** A beta flag as Anthropic names them (`interleaved-thinking-2025-05-14`): letters, digits, `.`, `_`, `-`. */
const betaFlag = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
/** An API version is a date (`2023-06-01`). */
const apiVersion = /^\d{4}-\d{2}-\d{2}$/;
const maxBetas = 32;

const valuesOf = (header: string | string[] | undefined): string[] =>
  header === undefined ? [] : Array.isArray(header) ? header : [header];

/**
 * The client's `anthropic-beta` flags and `anthropic-version`, for Claude upstreams only (the Anthropic
 * front attaches them to the request's Claude original). Only these two headers are kept, and only values
 * made of plain tokens: a flag or version with any other character (spaces, `;`, `:`, control characters)
 * is left out, so nothing but a comma list of flags and a date can reach an upstream's headers.
 */
export function anthropicClientHeaders(headers: IncomingHttpHeaders): AnthropicClientHeaders {
  const betas = new Set<string>();
  for (const value of valuesOf(headers['anthropic-beta'])) {
    for (const flag of value.split(',')) {
      const trimmed = flag.trim();
      if (betaFlag.test(trimmed) && betas.size < maxBetas) betas.add(trimmed);
    }
  }
  const result: AnthropicClientHeaders = {};
  if (betas.size > 0) result.betas = [...betas];
  const version = headers['anthropic-version'];
  if (typeof version === 'string' && apiVersion.test(version.trim())) result.version = version.trim();
  return result;
}
