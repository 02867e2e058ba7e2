import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { responsesCreateBody, responsesCreatePasses } from './responses-front.schema.js';

const codexRequest = JSON.parse(
  readFileSync(
    new URL('../../relay/fronts/responses/__fixtures__/codex-0.169.0-request.json', import.meta.url),
    'utf8',
  ),
) as Record<string, unknown>;

const long = (length: number) => 'x'.repeat(length);
// Values that matter to a rule of the schema, valid and not, for each field the written-out check reads.
const items: unknown[] = [
  { role: 'user', content: 'hi' },
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
  { type: 'message', role: 'user', content: [{ text: 'no type' }] },
  { type: 'reasoning', content: null, summary: [] },
  { type: 'function_call_output', call_id: 'c1', output: 'ok' },
  { type: '', role: 'user', content: 'hi' },
  { type: long(65) },
  { role: long(33), content: 'hi' },
  { role: 'user', content: 7 },
  'hi',
  null,
];
const fields: Record<string, unknown[]> = {
  model: [undefined, '', 'gpt-5', long(200), long(201), 5],
  input: [undefined, 'hello', [], ...items.map((item) => [item]), 7, { role: 'user' }],
  instructions: [undefined, null, 'be brief', 3],
  previous_response_id: [undefined, null, 'resp_1', '', long(201)],
  store: [undefined, null, false, 'no'],
  background: [undefined, null, true, 1],
  stream: [undefined, null, true, 'true'],
  tools: [undefined, [], [{ type: 'function', name: 'shell' }], [{ name: 'untyped' }], {}],
  tool_choice: [undefined, 'auto', 'required', 'sometimes', { type: 'function', name: 'shell' }, { name: 'x' }],
  parallel_tool_calls: [undefined, null, false, 'yes'],
  text: [undefined, {}, { format: { type: 'json_schema' } }, { format: {} }, { format: null }, 'text'],
  reasoning: [undefined, null, { effort: 'high' }, { effort: null, summary: 'auto' }, { effort: 1 }, 'high'],
  max_output_tokens: [undefined, null, 1, 0, 1.5, 1_073_741_824],
  temperature: [undefined, null, 0, 2, 2.5, Number.NaN],
  top_p: [undefined, null, 1, 1.1],
  user: [undefined, 'u', long(257), null],
  metadata: [undefined, null, { a: 'b' }, { [long(65)]: 'b' }, { a: long(513) }, { a: 1 }, []],
  include: [undefined, null, ['reasoning.encrypted_content'], [long(129)], Array.from({ length: 65 }, () => 'x')],
};
const valid = { model: 'gpt-5', input: 'hi' };

/** The valid body with one field set to each of its values, then with two fields varied at once. */
function bodies(): Record<string, unknown>[] {
  const withValue = (body: Record<string, unknown>, name: string, value: unknown) => {
    const next = { ...body };
    if (value === undefined) delete next[name];
    else next[name] = value;
    return next;
  };
  const names = Object.keys(fields);
  const all: Record<string, unknown>[] = [];
  for (let i = 0; i < names.length; i++)
    for (let j = i + 1; j < names.length; j++)
      for (const a of fields[names[i]!]!)
        for (const b of fields[names[j]!]!) all.push(withValue(withValue(valid, names[i]!, a), names[j]!, b));
  return all;
}

describe("the Responses front's written-out check", () => {
  it('passes a body exactly when the wire schema accepts it, over every pair of field values', () => {
    const cases = bodies();
    expect(cases.length).toBeGreaterThan(4000);
    let passed = 0;
    for (const body of cases) {
      const accepted = responsesCreateBody.safeParse(body).success;
      expect({ body, passes: responsesCreatePasses(body) }).toEqual({ body, passes: accepted });
      if (accepted) passed += 1;
    }
    expect(passed).toBeGreaterThan(100);
    expect(passed).toBeLessThan(cases.length);
  });

  it("passes Codex's recorded request as it is", () => {
    expect(responsesCreateBody.safeParse(codexRequest).success).toBe(true);
    expect(responsesCreatePasses(codexRequest)).toBe(true);
  });
});
