import { z } from 'zod';
import { createChannelBody as createChannelWire, updateChannelBody as updateChannelWire } from '@modelgate/wire';
import { isKnownChannelType } from '../../../domain/channel/channel-type-check.js';

/** The wire schemas check that `type` is an integer; only the server knows which types exist. */
const knownType = z.number().int().refine(isKnownChannelType, 'unknown channel type');

/** POST /api/channel/: one channel per non-empty key line. */
export const createChannelBody = createChannelWire.extend({ type: knownType });

/** PUT /api/channel/ with the whole form: fields left out keep their value, an empty key keeps the old key. */
export const updateChannelBody = updateChannelWire.extend({ type: knownType.optional() });
