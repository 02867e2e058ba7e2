import { z } from 'zod';

/**
 * Gemini's own API in front of the gateway (`/v1beta/models/{model}:generateContent` …). Only the fields the
 * front converts are checked, with Google's field names (camelCase; the front reads snake_case too, as Google
 * does); any other field is kept as sent: Gemini and Vertex channels get it, the others drop it and say so.
 */

const text = z.string().max(10_000_000);
const object = z.record(z.string(), z.unknown());

/** A part: text, inline data, a file, a function call or its answer, or a kind newer than this list. */
const part = z
  .object({
    text: text.optional(),
    thought: z.boolean().optional(),
    thoughtSignature: z.string().optional(),
    inlineData: z
      .object({ mimeType: z.string().max(256), data: text })
      .loose()
      .optional(),
    fileData: z
      .object({ mimeType: z.string().max(256).optional(), fileUri: z.string().max(10_000) })
      .loose()
      .optional(),
    functionCall: z
      .object({ name: z.string().min(1).max(256), args: object.optional(), id: z.string().max(256).optional() })
      .loose()
      .optional(),
    functionResponse: z
      .object({ name: z.string().max(256), response: object.optional(), id: z.string().max(256).optional() })
      .loose()
      .optional(),
  })
  .loose();

const content = z
  .object({
    role: z.enum(['user', 'model', 'function', 'system']).optional(),
    parts: z.array(part).max(100_000),
  })
  .loose();

const functionDeclaration = z
  .object({
    name: z.string().min(1).max(128),
    description: text.optional(),
    parameters: object.optional(),
    parametersJsonSchema: z.unknown().optional(),
  })
  .loose();

/** A tool: function declarations, or Google's own (googleSearch, codeExecution, urlContext …). */
const tool = z.object({ functionDeclarations: z.array(functionDeclaration).max(512).optional() }).loose();

const generationConfig = z
  .object({
    temperature: z.number().min(0).max(2).optional(),
    topP: z.number().min(0).max(1).optional(),
    topK: z.number().int().min(0).optional(),
    maxOutputTokens: z.number().int().positive().max(1_073_741_823).optional(),
    candidateCount: z.number().int().positive().max(8).optional(),
    stopSequences: z.array(z.string().max(1000)).max(16).optional(),
    seed: z.number().int().optional(),
    presencePenalty: z.number().optional(),
    frequencyPenalty: z.number().optional(),
    responseMimeType: z.string().max(256).optional(),
    responseSchema: object.optional(),
    responseJsonSchema: z.unknown().optional(),
    thinkingConfig: z
      .object({
        includeThoughts: z.boolean().optional(),
        thinkingBudget: z.number().int().optional(),
        thinkingLevel: z.string().max(32).optional(),
      })
      .loose()
      .optional(),
  })
  .loose();

/** `POST …:generateContent` and `…:streamGenerateContent`: one request shape. */
export const geminiGenerateContentBody = z
  .object({
    contents: z.array(content).min(1, 'contents is not specified').max(100_000),
    systemInstruction: content.partial({ parts: true }).optional(),
    tools: z.array(tool).max(128).optional(),
    toolConfig: z
      .object({
        functionCallingConfig: z
          .object({
            mode: z.enum(['MODE_UNSPECIFIED', 'AUTO', 'ANY', 'NONE', 'VALIDATED']).optional(),
            allowedFunctionNames: z.array(z.string().max(128)).max(512).optional(),
          })
          .loose()
          .optional(),
      })
      .loose()
      .optional(),
    generationConfig: generationConfig.optional(),
    safetySettings: z.array(z.object({}).loose()).max(64).optional(),
    cachedContent: z.string().max(1000).optional(),
  })
  .loose();

/** `POST …:countTokens`: contents alone, or a whole generateContent request. */
export const geminiCountTokensBody = z
  .object({
    contents: z.array(content).max(100_000).optional(),
    generateContentRequest: geminiGenerateContentBody.extend({ model: z.string().max(300).optional() }).optional(),
  })
  .loose();

const embedRequest = z
  .object({
    model: z.string().max(300).optional(),
    content: z
      .object({
        parts: z
          .array(z.object({ text: text.optional() }).loose())
          .min(1)
          .max(10_000),
      })
      .loose(),
    taskType: z.string().max(64).optional(),
    title: z.string().max(10_000).optional(),
    outputDimensionality: z.number().int().positive().max(100_000).optional(),
  })
  .loose();

/** `POST …:embedContent`. */
export const geminiEmbedContentBody = embedRequest;

/** `POST …:batchEmbedContents`. */
export const geminiBatchEmbedContentsBody = z
  .object({ requests: z.array(embedRequest).min(1, 'requests is not specified').max(2048) })
  .loose();

/** A model in Gemini's list (`GET /v1beta/models`). */
export const geminiModel = z.object({
  name: z.string(),
  baseModelId: z.string(),
  version: z.string(),
  displayName: z.string(),
  description: z.string(),
  supportedGenerationMethods: z.array(z.string()),
});

export const geminiModelList = z.object({ models: z.array(geminiModel) });

/** A path as Google writes it in its errors: `contents[0].parts[1].text`. */
export const googleFieldPath = (path: readonly PropertyKey[]): string =>
  path.map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index > 0 ? '.' : ''}${String(key)}`)).join('');

/** A refusal of the body, naming the field as Google does: `contents[0].parts: expected array`. */
export function geminiBodyProblem(error: z.ZodError): { field: string | null; message: string } {
  const issue = error.issues[0];
  if (!issue) return { field: null, message: 'invalid request' };
  const field = issue.path.length > 0 ? googleFieldPath(issue.path) : null;
  return { field, message: field ? `Invalid value at '${field}': ${issue.message}` : issue.message };
}
