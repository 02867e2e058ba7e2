/** Coze Chat v3 wire types. https://www.coze.com/docs/developer_guides/chat_v3 */

export interface CozeMessage {
  role: 'user' | 'assistant';
  type?: 'question' | 'answer' | 'function_call' | 'tool_output' | 'tool_response' | 'follow_up' | 'verbose';
  content: string;
  content_type: 'text' | 'object_string';
}

export interface CozeChatRequest {
  bot_id: string;
  user_id: string;
  stream: boolean;
  auto_save_history: boolean;
  additional_messages: CozeMessage[];
}

export interface CozeUsage {
  token_count?: number;
  output_count?: number;
  input_count?: number;
}

/** The data of `conversation.message.delta` / `.completed` events. */
export interface CozeMessageEvent extends CozeMessage {
  id: string;
  conversation_id: string;
  chat_id: string;
}

/** The data of `conversation.chat.*` events. */
export interface CozeChatEvent {
  id: string;
  conversation_id: string;
  status: 'created' | 'in_progress' | 'completed' | 'failed' | 'requires_action' | 'canceled';
  usage?: CozeUsage;
  last_error?: { code: number; msg: string };
}

/** Coze's error envelope (HTTP 200 with a non-zero code, or the `error` event). */
export interface CozeError {
  code: number;
  msg: string;
}
