import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { anthropicMessagesBody, anthropicMessagesPasses } from './anthropic-front.schema.js';

const fixture = (name: string) =>
  (
    JSON.parse(
      readFileSync(new URL(`../../relay/agent-matrix/__fixtures__/${name}.json`, import.meta.url), 'utf8'),
    ) as { body: Record<string, unknown> }
  ).body;

// Values that matter to a rule of the schema, valid and not, for each field the written-out check reads.
const blocks: unknown[] = [
  { type: 'text', text: 'hi' },
  { type: 'text' },
  { type: 'text', text: 7 },
  { type: 'image', source: { type: 'base64', data: 'AA==' } },
  { type: 'image', source: {} },
  { type: 'document' },
  { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } },
  { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: [] },
  { type: 'tool_use', id: 'x'.repeat(257), name: 'Bash', input: {} },
  { type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' },
  { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'ok' }] },
  { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ text: 'ok' }] },
  { type: 'tool_result', tool_use_id: 'toolu_1' },
  { type: 'tool_result', content: 'ok' },
  { type: 'thinking', thinking: 'hmm', signature: 'sig' },
  { type: 'thinking', signature: 'sig' },
  { type: 'redacted_thinking', data: 'opaque' },
  { type: 'redacted_thinking' },
  { type: 'server_tool_use', whatever: 1 },
  { type: '' },
  { type: 'x'.repeat(65) },
  'text',
  null,
];
const contents: unknown[] = ['hello', [], ...blocks.map((block) => [block]), 7, undefined];
const fields: Record<string, unknown[]> = {
  model: [undefined, '', 'claude-sonnet-4-5', 'x'.repeat(200), 'x'.repeat(201), 3],
  max_tokens: [undefined, 0, 1, 1.5, 1_073_741_823, 1_073_741_824, -1, '16', Number.NaN],
  messages: [
    undefined,
    [],
    'hi',
    ...contents.map((content) => [{ role: 'user', content }]),
    [{ role: 'system', content: 'be brief' }],
    [{ role: 'tool', content: 'x' }],
    [{ content: 'x' }],
  ],
  system: [undefined, 'be brief', [{ type: 'text', text: 'be brief', cache_control: { type: 'ephemeral' } }], [{}], 5],
  stream: [undefined, true, 'true'],
  temperature: [undefined, 0, 2, 2.1, -0.1, Number.POSITIVE_INFINITY],
  top_p: [undefined, 0.5, 1.5],
  top_k: [undefined, 0, 40, 1.5, -1],
  stop_sequences: [undefined, ['\n\nHuman:'], Array.from({ length: 17 }, () => 's'), ['x'.repeat(1001)], 'stop'],
  tools: [undefined, [{ name: 'Bash', input_schema: {} }], [{ name: '' }], [{}], {}],
  tool_choice: [
    undefined,
    { type: 'auto' },
    { type: 'tool', name: 'Bash' },
    { type: 'some' },
    { type: 'tool', name: 1 },
  ],
  metadata: [undefined, { user_id: 'u' }, { user_id: 'x'.repeat(257) }, { user_id: 1 }, 'u'],
};
const valid = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  messages: [{ role: 'user', content: 'hi' }],
};

/** The valid body with one field set to each of its values, then with two fields varied at once. */
function bodies(): Record<string, unknown>[] {
  const all: Record<string, unknown>[] = [];
  const names = Object.keys(fields);
  const withValue = (body: Record<string, unknown>, name: string, value: unknown) => {
    const next = { ...body };
    if (value === undefined) delete next[name];
    else next[name] = value;
    return next;
  };
  for (const name of names) for (const value of fields[name]!) all.push(withValue(valid, name, value));
  for (let i = 0; i < names.length; i++)
    for (let j = i + 1; j < names.length; j++)
      for (const a of fields[names[i]!]!)
        for (const b of fields[names[j]!]!) all.push(withValue(withValue(valid, names[i]!, a), names[j]!, b));
  return all;
}

describe("the Anthropic front's written-out check", () => {
  it('passes a body only when the wire schema accepts it, and passes every valid one these fields make', () => {
    const cases = bodies();
    expect(cases.length).toBeGreaterThan(2000);
    let passed = 0;
    for (const body of cases) {
      const accepted = anthropicMessagesBody.safeParse(body).success;
      // Never lets through what the schema refuses; here, with every field it reads covered, it is exact.
      expect({ body, passes: anthropicMessagesPasses(body) }).toEqual({ body, passes: accepted });
      if (accepted) passed += 1;
    }
    expect(passed).toBeGreaterThan(100);
    expect(passed).toBeLessThan(cases.length);
  });

  it("passes Claude Code's recorded requests as they are", () => {
    for (const name of ['claude-code-2.1.332-first', 'claude-code-2.1.332-tool-result']) {
      const body = fixture(name);
      expect(anthropicMessagesBody.safeParse(body).success).toBe(true);
      expect(anthropicMessagesPasses(body)).toBe(true);
    }
  });
});
