import { describe, expect, it } from 'vitest';
import type { RelayMode } from '../../relay/adaptor.js';
import { fastBodyChecks, jsonSchemas } from './relay.schema.js';

const firstMessage = (mode: RelayMode, body: Record<string, unknown>) => {
  const checked = jsonSchemas[mode]!.safeParse(body);
  return checked.success ? undefined : (checked.error.issues[0]?.message ?? 'invalid request');
};

// Every value each checked field can take that matters to a rule, and a few that do not.
const values: Record<string, unknown[]> = {
  model: [undefined, null, '', 'gpt-4o', 'x'.repeat(256), 'x'.repeat(257), 7, ['gpt-4o']],
  messages: [undefined, null, [], [{ role: 'user', content: 'hi' }], 'hi', {}],
  prompt: [undefined, null, '', 'hi', ['a', 'b'], 0],
  input: [undefined, null, '', 'hi', [1, 2], false],
  stream: [undefined, true, false, 'true', 1, null],
  max_tokens: [undefined, 0, 16, 1_073_741_823, 1_073_741_824, -1, 1.5, '16', null],
};
const fieldsOf: Partial<Record<RelayMode, string[]>> = {
  chat: ['model', 'messages', 'stream', 'max_tokens'],
  completions: ['model', 'prompt', 'stream', 'max_tokens'],
  embeddings: ['model', 'input'],
  moderations: ['model', 'input'],
};

/** Every combination of the fields' values (the cross product), each field absent when its value is undefined. */
function bodies(fields: string[]): Record<string, unknown>[] {
  let all: Record<string, unknown>[] = [{ temperature: 0.2 }];
  for (const field of fields)
    all = all.flatMap((body) =>
      values[field]!.map((value) => (value === undefined ? { ...body } : { ...body, [field]: value })),
    );
  return all;
}

describe('the written-out checks of the busiest /v1 bodies', () => {
  for (const [mode, fields] of Object.entries(fieldsOf) as [RelayMode, string[]][]) {
    it(`${mode}: refuses exactly what its wire schema refuses, with the same first message`, () => {
      const cases = bodies(fields);
      expect(cases.length).toBeGreaterThan(40);
      let refused = 0;
      for (const body of cases) {
        const expected = firstMessage(mode, body);
        expect({ body, message: fastBodyChecks[mode]!(body) }).toEqual({ body, message: expected });
        if (expected) refused += 1;
      }
      // Both outcomes are covered.
      expect(refused).toBeGreaterThan(0);
      expect(refused).toBeLessThan(cases.length);
    });
  }
});
