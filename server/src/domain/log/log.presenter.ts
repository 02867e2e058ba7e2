import type { LogRow } from '../../db/tables.js';
import { receiptText } from './log-receipt.js';

/**
 * The log object of the management API; `channel` carries channel_id, as one-api names it, and `other` the
 * JSON text (a consume log's receipt, rendered from the inputs the row stores: log-receipt.ts) as new-api returns
 * it, '' when none.
 */
export function presentLog(log: LogRow) {
  return {
    id: log.id,
    user_id: Number(log.user_id),
    created_at: Number(log.created_at),
    type: Number(log.type),
    content: log.content ?? '',
    username: log.username ?? '',
    token_name: log.token_name ?? '',
    model_name: log.model_name ?? '',
    quota: Number(log.quota),
    prompt_tokens: Number(log.prompt_tokens),
    completion_tokens: Number(log.completion_tokens),
    channel: Number(log.channel_id ?? 0),
    request_id: log.request_id ?? '',
    elapsed_time: Number(log.elapsed_time),
    is_stream: Boolean(log.is_stream),
    system_prompt_reset: Boolean(log.system_prompt_reset),
    other: receiptText(log.other, log),
  };
}

export type PresentedLog = ReturnType<typeof presentLog>;
