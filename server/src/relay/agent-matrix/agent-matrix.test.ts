import { describe, expect, test } from 'vitest';
import type { NewChannel } from '../../db/tables.js';
import { anthropicMockKey } from '../../../test/mock-upstreams/anthropic.js';
import { geminiMockKey } from '../../../test/mock-upstreams/gemini.js';
import { createChannel, createToken, createUser, setOption, settled } from '../../../test/relay-fixtures.js';
import { startedForSuite } from '../../../test/suite-lifecycle.js';
import { startTestServer } from '../../../test/test-server.js';
import {
  anthropicFront,
  chatFront,
  features,
  geminiFront,
  responsesFront,
  responsesWebSocketFront,
  type Feature,
  type Front,
  type FrontCall,
} from '../../../test/agent-matrix/fronts.js';
import {
  compatibleKey,
  exampleOf,
  greeting,
  openaiKey,
  secretWord,
  startClaudeVendor,
  startGeminiVendor,
  startOpenAIVendor,
  startZhipuVendor,
  zhipuId,
  zhipuSecret,
  type ScriptedVendor,
} from '../../../test/agent-matrix/upstreams.js';

type Json = Record<string, unknown>;

/**
 * Issue 30's matrix: every front (chat, Responses over HTTP and WebSocket, Anthropic messages, Gemini) × every
 * channel family (OpenAI, an OpenAI-compatible reseller without /v1/responses, Anthropic, Gemini, Zhipu) ×
 * (plain, stream, tool round, structured output, reasoning), each front driven by the requests its coding
 * agent sends (Claude Code 2.1.332, Codex 0.169, Gemini CLI 0.61, recorded in __fixtures__), each vendor a
 * loopback API answering from one script. A cell passes when it answers 200 in the front's dialect with what
 * was asked (the text, the tool call and the answer after its result, JSON of the schema, the reasoning) and
 * bills every upstream call at its reported usage; structured output and reasoning may instead be named in
 * x-modelgate-dropped.
 */

const fronts: Front[] = [chatFront, responsesFront, responsesWebSocketFront, anthropicFront, geminiFront];

interface Family {
  name: string;
  /** The vendor's own model every front's model is mapped to. */
  model: string;
  channel: Omit<Partial<NewChannel>, 'base_url'>;
  start(): Promise<ScriptedVendor>;
}

const families: Family[] = [
  {
    name: 'OpenAI',
    model: 'gpt-5',
    channel: { type: 1, key: openaiKey },
    start: () => startOpenAIVendor({ key: openaiKey, responses: true }),
  },
  {
    name: 'OpenAI-compatible without Responses',
    model: 'deepseek-reasoner',
    channel: { type: 1, key: compatibleKey },
    start: () => startOpenAIVendor({ key: compatibleKey, responses: false }),
  },
  {
    name: 'Anthropic',
    model: 'claude-sonnet-4-5',
    channel: { type: 14, key: anthropicMockKey },
    start: startClaudeVendor,
  },
  { name: 'Gemini', model: 'gemini-2.5-flash', channel: { type: 24, key: geminiMockKey }, start: startGeminiVendor },
  { name: 'Zhipu', model: 'glm-4.6', channel: { type: 16, key: `${zhipuId}.${zhipuSecret}` }, start: startZhipuVendor },
];

/** Every model is priced ratio 1, completion ratio 2: a call costs ceil(prompt + 2 × completion). */
const completionRatio = 2;

const droppedPatterns: Partial<Record<Feature, RegExp>> = {
  'structured output': /response_format|text\.format|output_config|responseJsonSchema|responseSchema|responseMimeType/,
  reasoning: /reasoning|thinking|effort/,
};

/** The minimal JSON-schema check the cells need: types, required properties, no others when closed. */
function matchesSchema(value: unknown, schema: Json): boolean {
  const type = String(schema.type ?? 'object').toLowerCase();
  if (type === 'object') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const properties = (schema.properties ?? {}) as Record<string, Json>;
    const record = value as Json;
    if (((schema.required ?? []) as string[]).some((name) => !(name in record))) return false;
    if (schema.additionalProperties === false && Object.keys(record).some((name) => !(name in properties)))
      return false;
    return Object.entries(record).every(([name, item]) => !properties[name] || matchesSchema(item, properties[name]));
  }
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'number') return typeof value === 'number';
  if (type === 'array') return Array.isArray(value);
  return typeof value === type;
}

describe('issue 30 matrix: fronts × channel families × features, driven by the coding agents’ requests', () => {
  const gateway = startedForSuite(async () => {
    const server = await startTestServer();
    const vendors = await Promise.all(families.map((family) => family.start()));
    const models = [...new Set([...fronts.map((front) => front.model), ...families.map((family) => family.model)])];
    await setOption(server, 'ModelRatio', JSON.stringify(Object.fromEntries(models.map((model) => [model, 1]))));
    await setOption(
      server,
      'CompletionRatio',
      JSON.stringify(Object.fromEntries(models.map((model) => [model, completionRatio]))),
    );
    const accounts = new Map<string, { key: string; userId: number; vendor: ScriptedVendor }>();
    for (const [index, family] of families.entries()) {
      const group = `matrix-${index}`;
      const vendor = vendors[index]!;
      await createChannel(server, {
        ...family.channel,
        name: family.name,
        group,
        base_url: vendor.url,
        models: fronts.map((front) => front.model).join(','),
        model_mapping: JSON.stringify(Object.fromEntries(fronts.map((front) => [front.model, family.model]))),
      });
      const userId = await createUser(server, { username: group, group, quota: 1e9 });
      const token = await createToken(server, userId);
      accounts.set(family.name, { key: `sk-${token.key}`, userId, vendor });
    }
    return {
      server,
      accounts,
      async close() {
        await server.close();
        await Promise.all(vendors.map((vendor) => vendor.close()));
      },
    };
  });

  /** The user's consume logs after `afterId`, once the answered calls' charges are written. */
  async function logsAfter(userId: number, afterId: number) {
    await settled(gateway.server);
    return gateway.server.context.logDatabase.db
      .selectFrom('logs')
      .select(['id', 'quota', 'prompt_tokens', 'completion_tokens'])
      .where('user_id', '=', userId)
      .where('type', '=', 2)
      .where('id', '>', afterId)
      .orderBy('id')
      .execute();
  }

  const expectAnswered = (call: FrontCall) => expect(call.status, call.raw.slice(0, 600)).toBe(200);

  async function runCell(front: Front, family: Family, feature: Feature) {
    const { key, userId, vendor } = gateway.accounts.get(family.name)!;
    const lastLog = (await logsAfter(userId, 0)).at(-1)?.id ?? 0;
    const reportedBefore = vendor.reported.length;
    const url = gateway.server.url;
    const request = front.request(feature);
    const first = await front.send(url, key, request);
    expectAnswered(first);
    const { answer } = first;
    const dropped = droppedPatterns[feature]?.test(first.dropped) ?? false;
    if (feature === 'plain' || feature === 'stream') expect(answer.text).toBe(greeting);
    if (feature === 'tool round') {
      expect(
        answer.calls.map((call) => call.name),
        first.raw.slice(0, 600),
      ).toHaveLength(1);
      const second = await front.send(url, key, front.withToolResult(request, answer));
      expectAnswered(second);
      expect(second.answer.text).toBe(`The file says ${secretWord}.`);
    }
    if (feature === 'structured output' && !dropped) {
      const schema = front.schemaOf(request);
      expect(JSON.parse(answer.text), `the answer is JSON of the schema asked for: ${answer.text}`).toEqual(
        exampleOf(schema),
      );
      expect(matchesSchema(JSON.parse(answer.text), schema)).toBe(true);
    }
    if (feature === 'reasoning' && !dropped)
      expect(
        answer.reasoning !== '' || answer.reasoningTokens > 0,
        `reasoning came back (text or tokens), or ${front.name} named it in x-modelgate-dropped (${first.dropped || 'absent'})`,
      ).toBe(true);

    // Every upstream call has its consume log at its reported usage and price.
    const reported = vendor.reported.slice(reportedBefore);
    expect(reported.length).toBeGreaterThan(0);
    const logs = await logsAfter(userId, lastLog);
    const pairs = (list: { prompt: number; completion: number }[]) =>
      list.map(({ prompt, completion }) => `${prompt}/${completion}`).sort();
    expect(pairs(logs.map((log) => ({ prompt: log.prompt_tokens, completion: log.completion_tokens })))).toEqual(
      pairs(reported),
    );
    for (const log of logs) {
      expect(Number(log.quota)).toBeGreaterThan(0);
      expect(Number(log.quota)).toBe(Math.ceil(log.prompt_tokens + log.completion_tokens * completionRatio));
    }
  }

  for (const front of fronts)
    describe(front.name, () => {
      for (const family of families)
        for (const feature of features) test(`${family.name} × ${feature}`, () => runCell(front, family, feature));
    });
});
