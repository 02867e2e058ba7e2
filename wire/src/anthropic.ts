import { z } from 'zod';

const text = z.string().max(10_000_000);

/**
 * The content blocks the front converts, with the fields it reads. Any other block type (Claude's
 * `server_tool_use`, `search_result`, a type newer than this list …) is kept as sent: Claude channels get it,
 * other channels drop it and say so.
 */
const knownBlocks: Record<string, z.ZodType> = {
  text: z.object({ text }).loose(),
  image: z.object({ source: z.object({ type: z.string() }).loose() }).loose(),
  document: z.object({ source: z.object({ type: z.string() }).loose() }).loose(),
  tool_use: z
    .object({ id: z.string().max(256), name: z.string().max(256), input: z.record(z.string(), z.unknown()) })
    .loose(),
  tool_result: z
    .object({
      tool_use_id: z.string().max(256),
      content: z.union([text, z.array(z.object({ type: z.string() }).loose())]).optional(),
    })
    .loose(),
  thinking: z.object({ thinking: text }).loose(),
  redacted_thinking: z.object({ data: text }).loose(),
};

/** A content block: `type` names it; a block the front converts must have that type's fields. */
const block = z
  .object({ type: z.string().min(1).max(64) })
  .loose()
  .superRefine((value, context) => {
    const known = knownBlocks[value.type];
    if (!known) return;
    for (const issue of known.safeParse(value).error?.issues ?? [])
      context.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });
const content = z.union([z.string(), z.array(block).max(10_000)]);

/**
 * What `POST /v1/messages` needs before it is converted: the Messages API's required fields with their
 * types, `system` messages anywhere in `messages` (Claude Code's mid-conversation system prompts) and any
 * other field or block as sent (passed to Claude channels, dropped with a note for others).
 */
export const anthropicMessagesBody = z
  .object({
    model: z.string().min(1).max(200),
    max_tokens: z.number().int().positive().max(1_073_741_823),
    messages: z
      .array(z.object({ role: z.enum(['user', 'assistant', 'system']), content }).loose())
      .min(1, 'at least one message is required')
      .max(10_000),
    system: z.union([z.string(), z.array(block)]).optional(),
    stream: z.boolean().optional(),
    temperature: z.number().min(0).max(2).optional(),
    top_p: z.number().min(0).max(1).optional(),
    top_k: z.number().int().min(0).optional(),
    stop_sequences: z.array(z.string().max(1000)).max(16).optional(),
    tools: z
      .array(z.object({ name: z.string().min(1).max(128) }).loose())
      .max(512)
      .optional(),
    tool_choice: z
      .object({ type: z.enum(['auto', 'any', 'tool', 'none']), name: z.string().optional() })
      .loose()
      .optional(),
    metadata: z
      .object({ user_id: z.string().max(256).optional() })
      .loose()
      .optional(),
  })
  .loose();

/** `POST /v1/messages/count_tokens`: the same conversation without max_tokens. */
export const anthropicCountTokensBody = anthropicMessagesBody
  .omit({ max_tokens: true })
  .extend({ max_tokens: z.number().optional() });

/**
 * A refusal of the body as Anthropic words it, naming the field: `messages.1.content.0.text: Invalid input:
 * expected string, received undefined`.
 */
export function anthropicBodyProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid request';
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}
