/** Google's error envelope (google.rpc.Status as JSON), which the Gemini SDKs and Gemini CLI read. */
export interface GoogleErrorBody {
  error: { code: number; message: string; status: string; details?: Record<string, unknown>[] };
}

/** The canonical status name Google pairs with each HTTP status. */
const statusNames: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** The status name of an HTTP status (any other 4xx is a bad argument, any other 5xx unavailable). */
export function googleStatusName(code: number): string {
  return statusNames[code] ?? (code < 500 ? 'FAILED_PRECONDITION' : 'UNAVAILABLE');
}

/** An error in Google's shape; a named field becomes a BadRequest field violation, as Google reports them. */
export function googleError(code: number, message: string, options: { status?: string; field?: string } = {}) {
  const body: GoogleErrorBody = { error: { code, message, status: options.status ?? googleStatusName(code) } };
  if (options.field)
    body.error.details = [
      {
        '@type': 'type.googleapis.com/google.rpc.BadRequest',
        fieldViolations: [{ field: options.field, description: message }],
      },
    ];
  return body;
}

/** A request the Gemini front cannot take, with the offending field in Google's spelling (`contents[0].parts`). */
export class GeminiRequestError extends Error {
  constructor(
    readonly field: string | null,
    message: string,
    readonly code = 400,
  ) {
    super(message);
  }
}

/**
 * A balance too low for the call, as Google answers an exhausted quota (429 `RESOURCE_EXHAUSTED`). The
 * "limit: 0" is what Gemini CLI reads as a quota that waiting will not restore: any other 429 it retries.
 */
export function googleLowBalance(detail: string) {
  return {
    status: 429,
    body: googleError(429, `Your credit balance is too low (quota limit: 0 until topped up): ${detail}`),
  };
}
