/** A message in both interface languages; the answer uses the one the client asked for (Accept-Language). */
export interface Message {
  zh: string;
  en: string;
}

/**
 * The one error type of the server. `code` is stable and machine-readable; the management API renders
 * `{ success: false, message }`, the relay renders OpenAI's error object with the code in `error.code`.
 * Business refusals on `/api` answer HTTP 200 as one-api does, so its clients keep working.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly text: Message,
    readonly status = 200,
    /** Sent as the answer's `data` (e.g. `{ require_2fa: true }`), so a client can tell what to do next. */
    readonly data?: Record<string, unknown>,
  ) {
    super(text.en);
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;

export const invalidParameter = (detail?: string) =>
  new AppError('invalid_parameter', {
    zh: detail ? `无效的参数：${detail}` : '无效的参数',
    en: detail ? `invalid parameter: ${detail}` : 'invalid parameter',
  });
