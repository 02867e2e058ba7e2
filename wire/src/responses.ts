import { z } from 'zod';

const text = z.string().max(10_000_000);
const typed = z.object({ type: z.string().min(1).max(64) }).loose();

/**
 * An `input` item: a message (`type` may be left out, as the SDKs' easy input does) with a string or parts,
 * or another item named by `type` (function_call, function_call_output, reasoning …). The converter checks
 * each item type's fields and names the one it cannot read.
 */
const inputItem = z
  .object({
    type: z.string().min(1).max(64).optional(),
    role: z.string().max(32).optional(),
    // null on the reasoning items OpenAI returns (and Codex sends back as they came).
    content: z
      .union([text, z.array(typed).max(10_000)])
      .nullable()
      .optional(),
  })
  .loose();

/**
 * What `POST /v1/responses` needs before it is converted: OpenAI's Responses request with the types of the
 * fields the gateway reads; any other field is accepted as sent (passed through to OpenAI channels, ignored by
 * the conversion for the others).
 */
export const responsesCreateBody = z
  .object({
    model: z.string().min(1).max(200),
    input: z.union([text, z.array(inputItem).max(10_000)]).optional(),
    instructions: text.nullable().optional(),
    previous_response_id: z.string().min(1).max(200).nullable().optional(),
    store: z.boolean().nullable().optional(),
    /** Refused when true: the gateway answers within the request (no background responses to poll or cancel). */
    background: z.boolean().nullable().optional(),
    stream: z.boolean().nullable().optional(),
    tools: z.array(typed).max(512).optional(),
    tool_choice: z.union([z.enum(['auto', 'none', 'required']), typed]).optional(),
    parallel_tool_calls: z.boolean().nullable().optional(),
    text: z.object({ format: typed.optional() }).loose().optional(),
    reasoning: z
      .object({ effort: z.string().max(32).nullable().optional(), summary: z.string().max(32).nullable().optional() })
      .loose()
      .nullable()
      .optional(),
    max_output_tokens: z.number().int().positive().max(1_073_741_823).nullable().optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
    top_p: z.number().min(0).max(1).nullable().optional(),
    user: z.string().max(256).optional(),
    metadata: z.record(z.string().max(64), z.string().max(512)).nullable().optional(),
    include: z.array(z.string().max(128)).max(64).nullable().optional(),
  })
  .loose();

/**
 * The issue to report: for a field that may take several shapes (`input` as text or items), the issue of the
 * shape that got furthest, so the path reaches the offending item rather than stopping at `input`.
 */
function deepestIssue(issue: z.core.$ZodIssue): { path: PropertyKey[]; message: string } {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue;
  const candidates = issue.errors.flatMap((branch) => branch.slice(0, 1)).map(deepestIssue);
  const deepest = candidates.reduce((best, next) => (next.path.length > best.path.length ? next : best));
  if (deepest.path.length > 0) return { path: [...issue.path, ...deepest.path], message: deepest.message };
  // No shape got further: say which were expected (`expected string or array`).
  const expected = issue.errors.flatMap((branch) =>
    branch.flatMap((inner) => ('expected' in inner ? [inner.expected] : [])),
  );
  return expected.length > 0 ? { path: issue.path, message: `expected ${expected.join(' or ')}` } : issue;
}

/** A refusal of the body in OpenAI's terms: `param` is the offending path (`input.2.content`), if any. */
export function responsesBodyProblem(error: z.ZodError): { param: string | null; detail: string } {
  const first = error.issues[0];
  if (!first) return { param: null, detail: 'invalid request' };
  const issue = deepestIssue(first);
  return { param: issue.path.length > 0 ? issue.path.map(String).join('.') : null, detail: issue.message };
}
