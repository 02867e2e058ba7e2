import { AppError } from '../../lib/errors.js';

/** `GET`/`DELETE /v1/responses/{id}` for a response that is not (or no longer) stored for this user. */
export const responseNotFound = (id: string) =>
  new AppError(
    'response_not_found',
    { zh: `未找到响应：${id}`, en: `No response found with id '${id}': it was not stored or has expired` },
    404,
  );

/** A `previous_response_id` that names no stored response of this user. */
export const previousResponseNotFound = (id: string) =>
  new AppError(
    'previous_response_not_found',
    {
      zh: `未找到上一个响应：${id}`,
      en: `Previous response with id '${id}' not found: it was sent with store:false, belongs to another user or has expired`,
    },
    400,
  );
