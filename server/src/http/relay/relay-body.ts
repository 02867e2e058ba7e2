import type { z } from 'zod';
import type { RelayMode } from '../../relay/adaptor.js';
import type { JobBody } from '../../relay/pipeline/relay-job.js';
import { relayErrors } from '../../relay/relay-errors.js';
import { parseJsonBody, type JsonBodyError } from '../../lib/json-body.js';
import { lazyObject, outlineJson } from '../../lib/json-outline.js';
import { imageRequestProblem } from '../../domain/pricing/image-price.js';
import { defaultModels, fastBodyChecks, jsonSchemas, multipartFields } from './relay.schema.js';

const firstIssue = (error: z.ZodError) => error.issues[0]?.message ?? 'invalid request';

/**
 * The size from which a chat body is outlined (lib/json-outline.ts) instead of parsed: below it JSON.parse is
 * cheaper (1 µs for a short chat), above it decoding and parsing grow with the conversation while the outline
 * skips its strings (8 KB: 47 µs parsed, 25 outlined; 213 KB: 1.5 ms, 0.3).
 */
const outlinedFrom = 8 * 1024;

/** Modes whose body is a multipart upload (relayed as the client's bytes). */
const multipartModes = new Set<RelayMode>(['audio-transcription', 'audio-translation']);

/**
 * Reads the body kept as bytes by the /v1 content-type parsers: JSON for text, image and speech requests,
 * multipart for audio uploads and image edits. A bad body is a 400 in OpenAI's shape, never a 500.
 */
export async function readJobBody(
  raw: Buffer,
  contentType: string,
  mode: RelayMode,
  pathModel?: string,
): Promise<JobBody> {
  if (contentType.startsWith('multipart/form-data')) {
    if (!multipartModes.has(mode) && mode !== 'images')
      throw relayErrors.invalidRequest('this endpoint takes a JSON body (Content-Type: application/json)');
    let form: FormData;
    try {
      form = await new Request('http://relay.local/', {
        method: 'POST',
        body: new Uint8Array(raw),
        headers: { 'content-type': contentType },
      }).formData();
    } catch {
      throw relayErrors.invalidRequest('the multipart body cannot be read');
    }
    const fields: Record<string, string> = {};
    for (const [name, value] of form.entries()) if (typeof value === 'string') fields[name] = value;
    fields.model ||= defaultModels[mode] ?? '';
    const checked = multipartFields.safeParse(fields);
    if (!checked.success) throw relayErrors.invalidRequest(firstIssue(checked.error));
    if (!form.has('file') && !form.has('image')) throw relayErrors.invalidRequest('field file is required');
    return { kind: 'binary', raw, contentType, fields, form };
  }
  if (multipartModes.has(mode)) throw relayErrors.invalidRequest('this endpoint takes a multipart/form-data upload');
  if (!contentType.startsWith('application/json'))
    throw relayErrors.invalidRequest('the request body must be JSON (Content-Type: application/json)');
  // A long conversation (an agent's) is outlined rather than decoded: its members are decoded when read. Other
  // modes read their whole input (an embeddings input of token ids would only cost an outline more).
  const outline = mode === 'chat' && raw.length >= outlinedFrom ? outlineJson(raw) : undefined;
  let value: unknown;
  try {
    value = outline ? lazyObject(raw, outline) : parseJsonBody(raw);
  } catch (error) {
    throw relayErrors.invalidRequest((error as JsonBodyError).message);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw relayErrors.invalidRequest('the request body must be a JSON object');
  const body = value as Record<string, unknown>;
  let filled = false;
  if (pathModel && !body.model) {
    body.model = pathModel;
    filled = true;
  }
  if (body.model === undefined && defaultModels[mode]) {
    body.model = defaultModels[mode];
    filled = true;
  }
  const fastCheck = fastBodyChecks[mode];
  const schema = fastCheck ? undefined : jsonSchemas[mode];
  if (fastCheck) {
    const problem = fastCheck(body, outline);
    if (problem) throw relayErrors.invalidRequest(problem);
  } else if (schema) {
    const checked = schema.safeParse(body);
    if (!checked.success) throw relayErrors.invalidRequest(firstIssue(checked.error));
  }
  if (mode === 'images') {
    const problem = imageRequestProblem(
      String(body.model),
      String(body.prompt),
      String(body.size ?? '1024x1024'),
      Number(body.n ?? 1),
    );
    if (problem) throw relayErrors.invalidRequest(problem);
  }
  return { kind: 'json', value: body, raw, filled, outline };
}

/** The model and stream flag of a body. */
export function modelOf(body: JobBody): { model: string; stream: boolean } {
  if (body.kind === 'binary') return { model: body.fields.model ?? '', stream: false };
  return { model: String(body.value.model ?? ''), stream: body.value.stream === true };
}
