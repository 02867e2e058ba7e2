import type { NewLog } from '../src/db/tables.js';
import { LogType } from '../src/domain/log/log.constants.js';

/** A consume log of root's worth one quota, with `fields` written over it: the row log tests insert. */
export const logRow = (fields: Partial<NewLog>): NewLog => ({
  user_id: 1,
  username: 'root',
  created_at: 0,
  type: LogType.Consume,
  content: '',
  token_name: 't',
  model_name: 'm',
  quota: 1,
  prompt_tokens: 1,
  completion_tokens: 1,
  channel_id: 1,
  request_id: 'r',
  elapsed_time: 1,
  is_stream: 0,
  system_prompt_reset: 0,
  ...fields,
});
