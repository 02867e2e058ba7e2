import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { expectBilledExactly, startResponsesGateway, type ReportedUsage } from '../../../../test/exact-billing.js';
import { startOpenAIResponsesMock, type MockAnswer } from '../../../../test/mock-upstreams/openai-responses.js';
import { lastUserTurn, startScriptedClaude } from '../../../../test/mock-upstreams/scripted-claude.js';
import { createToken, createUser } from '../../../../test/relay-fixtures.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';

type Json = Record<string, unknown>;

const runFile = promisify(execFile);
/** The AI SDK's client process (test/ai-sdk-client.mjs: why a process of its own is said there). */
const aiSdkClient = fileURLToPath(new URL('../../../../test/ai-sdk-client.mjs', import.meta.url));

/** What the client prints: the SDK's reading of the answer. */
interface ClientResult {
  text: string;
  usage: { inputTokens?: number; outputTokens?: number };
  parts?: string[];
  steps?: { finishReason: string; toolResults: { toolName: string; output: unknown }[] }[];
}

const model = 'gpt-4.1';
const completionRatio = 4;

/** Whether a Responses request already carries the tool's output (the second step of a tool loop). */
const hasToolOutput = (body: Json) =>
  Array.isArray(body.input) && (body.input as Json[]).some((item) => item.type === 'function_call_output');
const inputText = (body: Json) => JSON.stringify(body.input);

/**
 * A gateway whose model is served natively by an OpenAI channel for one group and converted for a Claude
 * channel for another. Both upstreams answer the same script: a weather question gets a call of the tool,
 * its output gets the final answer, anything else a greeting; each call reports its own usage.
 */
async function startGateway() {
  const reported: ReportedUsage[] = [];
  const openai = await startOpenAIResponsesMock((body) => {
    const usage = { input: 300 + reported.length * 11, output: 9 + reported.length };
    reported.push({ prompt: usage.input, completion: usage.output });
    let answer: MockAnswer['output'] = [{ type: 'message', text: 'Hello from OpenAI.' }];
    if (hasToolOutput(body)) answer = [{ type: 'message', text: 'It is 18°C in Paris.' }];
    else if (inputText(body).includes('weather'))
      answer = [{ type: 'function_call', name: 'weather', arguments: '{"city":"Paris"}' }];
    return { output: answer, usage };
  });
  const claude = await startScriptedClaude((body) => {
    const last = lastUserTurn(body);
    if (last.hasToolResult) return { text: 'It is 18°C in Paris.' };
    if (last.text.includes('weather')) return { toolUse: { name: 'weather', input: { city: 'Paris' } } };
    return { text: 'Hello from Claude.' };
  });
  const server = await startResponsesGateway(model, completionRatio, { openaiUrl: openai.url, claudeUrl: claude.url });
  return {
    server,
    openai,
    claude,
    reported,
    async close() {
      await server.close();
      await Promise.all([openai.close(), claude.close()]);
    },
  };
}

describe("the Vercel AI SDK's default OpenAI model (the Responses API) through ModelGate", () => {
  const gateway = startedForSuite(startGateway);

  /** A user of the group, and the AI SDK calling `openai(model)` at the gateway with their key. */
  async function aiSdkUser(group: string) {
    const userId = await createUser(gateway.server, {
      username: `ai-sdk-${group}-${Math.random()}`,
      group,
      quota: 10_000_000,
    });
    const token = await createToken(gateway.server, userId);
    const run = async (mode: 'plain' | 'tool' | 'stream', prompt: string): Promise<ClientResult> => {
      const job = { apiKey: `sk-${token.key}`, baseURL: `${gateway.server.url}/v1`, model, mode, prompt };
      // Without the suite's NODE_OPTIONS (its `--conditions=source`).
      const { stdout } = await runFile(process.execPath, [aiSdkClient, JSON.stringify(job)], {
        env: { PATH: process.env.PATH },
        timeout: 30_000,
      });
      return JSON.parse(stdout) as ClientResult;
    };
    return { account: { userId, tokenId: token.id }, run };
  }

  describe.each([
    ['openai', 'OpenAI channel (Responses natively)', 'Hello from OpenAI.'],
    ['claude', 'Claude channel (converted)', 'Hello from Claude.'],
  ])('on the %s group: %s', (group, _label, greeting) => {
    const reported = () => (group === 'openai' ? gateway.reported : gateway.claude.reported);

    test('generateText: a plain answer with its usage, billed exactly', async () => {
      const { account, run } = await aiSdkUser(group);
      const result = await expectBilledExactly(gateway.server, account, reported(), completionRatio, () =>
        run('plain', 'Say hi.'),
      );
      expect(result.text).toBe(greeting);
      const call = reported().at(-1)!;
      expect(result.usage).toMatchObject({ inputTokens: call.prompt, outputTokens: call.completion });
    });

    test('generateText with a tool: the SDK runs it and the model answers from its output, every step billed', async () => {
      const { account, run } = await aiSdkUser(group);
      const result = await expectBilledExactly(gateway.server, account, reported(), completionRatio, () =>
        run('tool', 'What is the weather in Paris?'),
      );
      expect(result.steps!.map((step) => step.finishReason)).toEqual(['tool-calls', 'stop']);
      expect(result.steps![0]!.toolResults).toEqual([{ toolName: 'weather', output: 'Paris: 18°C' }]);
      expect(result.text).toBe('It is 18°C in Paris.');
      if (group === 'openai') {
        const second = gateway.openai.requests.at(-1)!.json!;
        expect(second.input).toContainEqual(
          expect.objectContaining({ type: 'function_call_output', output: 'Paris: 18°C' }),
        );
      } else {
        expect(gateway.claude.requests.at(-1)!.body).toContain('Paris: 18°C');
      }
    });

    test('streamText: the text arrives in parts, the usage at the end, billed exactly', async () => {
      const { account, run } = await aiSdkUser(group);
      const result = await expectBilledExactly(gateway.server, account, reported(), completionRatio, () =>
        run('stream', 'Say hi.'),
      );
      expect(result.text).toBe(greeting);
      expect(result.parts!.length).toBeGreaterThan(0);
      expect(result.usage).toMatchObject({ inputTokens: reported().at(-1)!.prompt });
    });
  });
});
