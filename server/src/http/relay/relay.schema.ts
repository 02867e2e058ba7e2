import type { z } from 'zod';
import { chatBody, completionBody, embeddingBody, imageBody, moderationBody, speechBody } from '@modelgate/wire';
import type { RelayMode } from '../../relay/adaptor.js';
import type { OutlineObject } from '../../lib/json-outline.js';

export { multipartFields } from '@modelgate/wire';

/** The JSON schema of each JSON mode. */
export const jsonSchemas: Partial<Record<RelayMode, z.ZodType<Record<string, unknown>>>> = {
  chat: chatBody,
  completions: completionBody,
  embeddings: embeddingBody,
  moderations: moderationBody,
  images: imageBody,
  'audio-speech': speechBody,
};

/** Defaults one-api fills in before validation (model of moderations, images, audio). */
export const defaultModels: Partial<Record<RelayMode, string>> = {
  moderations: 'text-moderation-latest',
  images: 'dall-e-2',
  'audio-transcription': 'whisper-1',
  'audio-translation': 'whisper-1',
};

/**
 * The busiest modes' checks written out: the same rules and the same first message as their wire schemas
 * (relay.schema.test.ts holds them to it), without the copy of the whole body a zod loose object makes on
 * every call (26 µs of a call's CPU in the profile).
 */
type BodyCheck = (body: Record<string, unknown>, outline?: OutlineObject) => string | undefined;

const maxTokensLimit = 1_073_741_823;

function modelProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length < 1) return 'model is required';
  if (value.length > 256) return 'model name is too long';
  return undefined;
}

function streamProblem(value: unknown): string | undefined {
  return value === undefined || typeof value === 'boolean' ? undefined : 'stream must be a boolean';
}

function maxTokensProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= maxTokensLimit
    ? undefined
    : 'max_tokens is invalid';
}

/** An outlined body's conversation is checked on its outline: a long one is not decoded for the check. */
function messagesProblem(body: Record<string, unknown>, outline: OutlineObject | undefined): string | undefined {
  const node = outline?.members.get('messages');
  const given = node
    ? node.type === 'array' && node.items.length > 0
    : Array.isArray(body.messages) && body.messages.length > 0;
  return given ? undefined : 'field messages is required';
}

const presentProblem = (value: unknown, name: string) =>
  value === undefined || value === null || value === '' ? `field ${name} is required` : undefined;

export const fastBodyChecks: Partial<Record<RelayMode, BodyCheck>> = {
  chat: (body, outline) =>
    modelProblem(body.model) ??
    messagesProblem(body, outline) ??
    streamProblem(body.stream) ??
    maxTokensProblem(body.max_tokens),
  completions: (body) =>
    modelProblem(body.model) ??
    presentProblem(body.prompt, 'prompt') ??
    streamProblem(body.stream) ??
    maxTokensProblem(body.max_tokens),
  embeddings: (body) => modelProblem(body.model) ?? presentProblem(body.input, 'input'),
  moderations: (body) => modelProblem(body.model) ?? presentProblem(body.input, 'input'),
};
