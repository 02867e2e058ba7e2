/**
 * A Responses request the front cannot convert, naming the field as OpenAI does (`param`, and the message
 * starting with the path, e.g. `input.2.content.0.type: ...`). Its `statusCode` makes the relay's error
 * answer a 400 `invalid_request_error`.
 */
export class ResponsesRequestError extends Error {
  readonly statusCode = 400;
  constructor(
    readonly param: string | null,
    detail: string,
  ) {
    super(param ? `${param}: ${detail}` : detail);
    this.name = 'ResponsesRequestError';
  }
}
