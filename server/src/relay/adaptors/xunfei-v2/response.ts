import type { UpstreamErrorBody } from '../../adaptor.js';
import { vendorErrorBody } from '../openai-kit/upstream-errors.js';
import { sparkErrorStatus } from '../xunfei/response.js';

/** Every Spark HTTP answer and chunk carries `code` (0 = success), `message` and `sid`. */
export function sparkHttpError(payload: Record<string, unknown>, httpStatus: number): UpstreamErrorBody | undefined {
  const code = Number(payload.code ?? 0);
  if (!code) return undefined;
  const status = httpStatus >= 400 ? httpStatus : sparkErrorStatus(code);
  const sid = typeof payload.sid === 'string' ? ` (sid: ${payload.sid})` : '';
  return vendorErrorBody(status, `${String(payload.message ?? '')}${sid}`, 'xunfei_error', code);
}
