import { z } from 'zod';
import { createChannelBody as createChannelWire, updateChannelBody as updateChannelWire } from '@modelgate/wire';
import { isKnownChannelType } from '../../../domain/channel/channel-type-check.js';
import { responsesApiSettings } from '../../../relay/adaptors/openai/responses-pass-through.js';

/** The wire schemas check that `type` is an integer; only the server knows which types exist. */
const knownType = z.number().int().refine(isKnownChannelType, 'unknown channel type');

/** The wire checks that `config` is a JSON object; the relay reads `responses_api` from it (auto, native or chat). */
function checkConfig({ config }: { config?: string }, context: z.RefinementCtx): void {
  if (!config) return;
  const setting: unknown = (JSON.parse(config) as Record<string, unknown>).responses_api;
  if (setting === undefined || setting === '' || responsesApiSettings.includes(setting as never)) return;
  context.addIssue({
    code: 'custom',
    path: ['config'],
    message: `config.responses_api must be one of ${responsesApiSettings.join(', ')}`,
  });
}

/** POST /api/channel/: one channel per non-empty key line. */
export const createChannelBody = createChannelWire.extend({ type: knownType }).superRefine(checkConfig);

/** PUT /api/channel/ with the whole form: fields left out keep their value, an empty key keeps the old key. */
export const updateChannelBody = updateChannelWire.extend({ type: knownType.optional() }).superRefine(checkConfig);
