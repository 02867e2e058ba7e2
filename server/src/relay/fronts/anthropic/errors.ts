/** Anthropic's error type for an HTTP status. https://docs.anthropic.com/en/api/errors */
export function anthropicErrorType(status: number): string {
  if (status === 400) return 'invalid_request_error';
  if (status === 401) return 'authentication_error';
  if (status === 402 || status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 503 || status === 529) return 'overloaded_error';
  return 'api_error';
}

/** The error body Anthropic clients read: `{type:"error", error:{type, message}}`. */
export function anthropicError(status: number, message: string) {
  return { type: 'error' as const, error: { type: anthropicErrorType(status), message } };
}

/**
 * A balance too low for the call, as Anthropic words it (a 400 `invalid_request_error` saying the credit
 * balance is too low), which Claude Code shows as a billing problem; a 401 or 403 it shows as a bad key.
 */
export function anthropicLowBalance(detail: string) {
  return { status: 400, body: anthropicError(400, `Your credit balance is too low to access the API: ${detail}`) };
}
