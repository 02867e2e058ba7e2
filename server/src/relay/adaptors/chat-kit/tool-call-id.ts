import { randomBytes } from 'node:crypto';

/** A fresh OpenAI-style tool call id for vendors that give none (`call_` + 24 hex characters). */
export const newToolCallId = () => `call_${randomBytes(12).toString('hex')}`;
