import { z } from 'zod';

const block = z.object({ type: z.string().max(64) }).passthrough();
const content = z.union([z.string(), z.array(block).max(10_000)]);

/**
 * What `POST /v1/messages` needs before it is converted: the Messages API's required fields with their
 * types; other fields pass through (and unknown ones are ignored by the conversion).
 */
export const anthropicMessagesBody = z
  .object({
    model: z.string().min(1, 'model: Field required').max(200),
    max_tokens: z.number().int().positive('max_tokens: must be a positive integer').max(1_073_741_823),
    messages: z
      .array(z.object({ role: z.enum(['user', 'assistant']), content }).passthrough())
      .min(1, 'messages: at least one message is required')
      .max(10_000),
    system: z.union([z.string(), z.array(block)]).optional(),
    stream: z.boolean().optional(),
    temperature: z.number().min(0).max(2).optional(),
    top_p: z.number().min(0).max(1).optional(),
    top_k: z.number().int().min(0).optional(),
    stop_sequences: z.array(z.string().max(1000)).max(16).optional(),
    tools: z
      .array(z.object({ name: z.string().min(1).max(128) }).passthrough())
      .max(512)
      .optional(),
    tool_choice: z
      .object({ type: z.enum(['auto', 'any', 'tool', 'none']), name: z.string().optional() })
      .passthrough()
      .optional(),
    metadata: z
      .object({ user_id: z.string().max(256).optional() })
      .passthrough()
      .optional(),
  })
  .passthrough();

/** `POST /v1/messages/count_tokens`: the same conversation without max_tokens. */
export const anthropicCountTokensBody = anthropicMessagesBody
  .omit({ max_tokens: true })
  .extend({ max_tokens: z.number().optional() });
