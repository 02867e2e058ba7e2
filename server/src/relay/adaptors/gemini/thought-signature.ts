/**
 * Gemini 3 refuses a function call sent back without the `thoughtSignature` it came with ("Function call is
 * missing a thought_signature"), and OpenAI's and Claude's tool calls have no field for it. The signature rides
 * in the tool call's id, which every client sends back unchanged: `<id>__thought__<signature as base64url>`
 * (letters, digits, `_` and `-` only, as Anthropic's tool_use ids must be).
 */
const separator = '__thought__';

/** The tool call id carrying a function call's signature (the id alone when it has none). */
export function idWithSignature(id: string, signature: string | undefined): string {
  return signature ? `${id}${separator}${Buffer.from(signature, 'utf8').toString('base64url')}` : id;
}

/** The signature a tool call id carries, if any. */
export function signatureOf(id: string | undefined): string | undefined {
  const at = id?.indexOf(separator) ?? -1;
  if (at < 0) return undefined;
  const signature = Buffer.from(id!.slice(at + separator.length), 'base64url').toString('utf8');
  return signature || undefined;
}
