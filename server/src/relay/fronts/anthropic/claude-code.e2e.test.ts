import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cliBinary } from '../../../../test/clis/index.js';
import { runClientProcess } from '../../../../test/client-process.js';
import { startScriptedGeminiUpstream, type ScriptedUpstream } from '../../../../test/gemini-front-upstreams.js';
import { anthropicMockKey, checkClaudeMessages } from '../../../../test/mock-upstreams/anthropic.js';
import { geminiMockKey } from '../../../../test/mock-upstreams/gemini.js';
import { type MockUpstream, startMockUpstream } from '../../../../test/mock-upstreams/mock-kit.js';
import { balances, createChannel, createToken, createUser } from '../../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import { droppedHeader } from '../dropped-header.js';

/** The real client, installed from npm into server/test/clis (`@anthropic-ai/claude-code`). */
const claudeBinary = cliBinary('claude');
/** Claude Code's default model in 2.1.332: the test passes no --model. */
const defaultModel = 'claude-opus-5-5';
const openaiUpstreamKey = 'sk-openai-upstream';
/** The model a Gemini channel maps Claude Code's default model to. */
const geminiModel = 'gemini-2.5-pro';
const fileText = 'the secret word is periwinkle';

/** The usage a mock reported for one call: distinct per call, so that each consume log can be matched to one. */
interface ReportedUsage {
  prompt: number;
  completion: number;
}

/**
 * What a turn of the conversation asks for: a final answer once a tool result came back, a tool call when the
 * prompt asks to read the file, plain text otherwise.
 */
function nextStep(lastUserText: string, hasToolResult: boolean): 'tool' | 'after-tool' | 'text' {
  if (hasToolResult) return 'after-tool';
  return lastUserText.includes('Read the file') ? 'tool' : 'text';
}

const sse = (events: { event?: string; data: unknown }[]) =>
  events.map(({ event, data }) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`).join('');

/** A loopback Anthropic Messages API answering Claude Code's turns as a stream, with usage per call. */
function startClaudeUpstream(reported: ReportedUsage[], filePath: string): Promise<MockUpstream> {
  return startMockUpstream(async (request, reply) => {
    if (request.method !== 'POST' || request.path !== '/v1/messages')
      return reply.json(404, { type: 'error', error: { type: 'not_found_error', message: request.path } });
    if (request.headers['x-api-key'] !== anthropicMockKey)
      return reply.json(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
    const body = request.json as { model: string; stream?: boolean; messages: ClaudeTurn[] };
    const problem = checkClaudeMessages(body.messages, { systemTurns: true });
    if (problem) return reply.json(400, { type: 'error', error: { type: 'invalid_request_error', message: problem } });
    const usage = { prompt: 1000 + reported.length * 37, completion: 20 + reported.length * 3 };
    reported.push(usage);
    const last = body.messages.findLast((message) => message.role === 'user');
    const blocks = typeof last?.content === 'string' ? [{ type: 'text', text: last.content }] : (last?.content ?? []);
    const step = nextStep(
      blocks.map((block) => (block.type === 'text' ? block.text : '')).join(' '),
      blocks.some((block) => block.type === 'tool_result'),
    );
    const content =
      step === 'tool'
        ? { type: 'tool_use', id: `toolu_${reported.length}`, name: 'Read', input: {} }
        : { type: 'text', text: '' };
    const message = {
      id: `msg_${reported.length}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: usage.prompt, output_tokens: 1 },
    };
    const delta =
      step === 'tool'
        ? { type: 'input_json_delta', partial_json: JSON.stringify({ file_path: filePath }) }
        : { type: 'text_delta', text: step === 'after-tool' ? 'The file says periwinkle.' : 'Hello from Claude.' };
    const events = [
      { event: 'message_start', data: { type: 'message_start', message } },
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: content } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta } },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      {
        event: 'message_delta',
        data: {
          type: 'message_delta',
          delta: { stop_reason: step === 'tool' ? 'tool_use' : 'end_turn', stop_sequence: null },
          usage: { output_tokens: usage.completion },
        },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ];
    if (body.stream) return reply.stream('text/event-stream', sse(events));
    return reply.json(200, {
      ...message,
      content: [step === 'tool' ? { ...content, input: { file_path: filePath } } : { type: 'text', text: delta.text }],
      stop_reason: step === 'tool' ? 'tool_use' : 'end_turn',
      usage: { input_tokens: usage.prompt, output_tokens: usage.completion },
    });
  });
}

type ClaudeTurn = { role: string; content: string | { type: string; text?: string }[] };
type ChatTurn = { role: string; content: string | null; tool_calls?: unknown[] };

/** A loopback OpenAI chat API answering the converted turns as a stream, with usage per call. */
function startOpenAIUpstream(reported: ReportedUsage[], filePath: string): Promise<MockUpstream> {
  return startMockUpstream(async (request, reply) => {
    if (request.headers.authorization !== `Bearer ${openaiUpstreamKey}`)
      return reply.json(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
    const body = request.json as { model: string; stream?: boolean; messages: ChatTurn[] };
    const usage = { prompt: 2000 + reported.length * 41, completion: 30 + reported.length * 5 };
    reported.push(usage);
    const last = body.messages.at(-1);
    const lastUser = body.messages.findLast((message) => message.role === 'user');
    const step = nextStep(String(lastUser?.content ?? ''), last?.role === 'tool');
    const head = { id: `chatcmpl-${reported.length}`, object: 'chat.completion.chunk', created: 1, model: body.model };
    const delta =
      step === 'tool'
        ? {
            role: 'assistant',
            tool_calls: [
              {
                index: 0,
                id: `call_${reported.length}`,
                type: 'function',
                function: { name: 'Read', arguments: JSON.stringify({ file_path: filePath }) },
              },
            ],
          }
        : { role: 'assistant', content: step === 'after-tool' ? 'The file says periwinkle.' : 'Hello from GPT.' };
    const chunks = [
      { choices: [{ index: 0, delta, finish_reason: null }] },
      { choices: [{ index: 0, delta: {}, finish_reason: step === 'tool' ? 'tool_calls' : 'stop' }] },
      {
        choices: [],
        usage: {
          prompt_tokens: usage.prompt,
          completion_tokens: usage.completion,
          total_tokens: usage.prompt + usage.completion,
        },
      },
    ];
    if (!body.stream)
      return reply.json(400, { error: { message: 'this mock streams only', type: 'invalid_request_error' } });
    return reply.stream(
      'text/event-stream',
      `${chunks.map((chunk) => `data: ${JSON.stringify({ ...head, ...chunk })}\n\n`).join('')}data: [DONE]\n\n`,
    );
  });
}

interface ClaudeRun {
  code: number | null;
  result: { result?: string; is_error?: boolean; num_turns?: number } | undefined;
  output: string;
}

/** `claude -p <prompt> --output-format json` against the gateway, in a temp home and working directory. */
async function runClaude(
  server: TestServer,
  key: string,
  prompt: string,
  home: string,
  cwd: string,
): Promise<ClaudeRun> {
  const { code, stdout, stderr } = await runClientProcess(
    claudeBinary,
    ['-p', prompt, '--output-format', 'json', '--allowedTools', 'Read'],
    {
      cwd,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        CLAUDE_CONFIG_DIR: join(home, '.claude'),
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: key,
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
      timeoutMs: 45_000,
    },
  );
  let result: ClaudeRun['result'];
  try {
    result = JSON.parse(stdout) as ClaudeRun['result'];
  } catch {
    result = undefined;
  }
  return { code, result, output: `${stdout}\n${stderr}` };
}

describe('Claude Code (the real client, print mode, its default model) through the Anthropic front', () => {
  let server: TestServer;
  let claudeUpstream: MockUpstream;
  let openaiUpstream: MockUpstream;
  let geminiUpstream: ScriptedUpstream;
  /** What the Gemini channel's test sent upstream, for the output limit's test after it. */
  let geminiRequests: ScriptedUpstream['requests'] = [];
  const claudeUsage: ReportedUsage[] = [];
  const openaiUsage: ReportedUsage[] = [];
  let folder: string;
  let filePath: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'mg-claude-code-'));
    filePath = join(folder, 'work', 'notes.txt');
    mkdirSync(join(folder, 'work'));
    writeFileSync(filePath, `${fileText}\n`);
    server = await startTestServer();
    claudeUpstream = await startClaudeUpstream(claudeUsage, filePath);
    openaiUpstream = await startOpenAIUpstream(openaiUsage, filePath);
    // Gemini answers Claude Code's turns from the same script: Read for the file prompt, then what it said.
    geminiUpstream = await startScriptedGeminiUpstream({
      toolCall: (prompt, tools) =>
        nextStep(prompt, false) === 'tool' && tools.includes('Read')
          ? { name: 'Read', args: { file_path: filePath } }
          : undefined,
      answer: (_prompt, toolResult) =>
        toolResult === undefined
          ? 'Hello from Gemini.'
          : toolResult.includes('periwinkle')
            ? 'The file says periwinkle.'
            : 'No file.',
    });
  });

  afterAll(async () => {
    await server?.close();
    await Promise.all([claudeUpstream?.close(), openaiUpstream?.close(), geminiUpstream?.close()]);
    rmSync(folder, { recursive: true, force: true });
  });

  /**
   * A user in a group of its own, served by one channel of this type for Claude Code's default model (a Gemini
   * channel maps it to a Gemini model).
   */
  async function channelUser(group: string, upstream: MockUpstream, type: number) {
    const keys: Record<number, string> = { 14: anthropicMockKey, 24: geminiMockKey };
    const channel = await createChannel(server, {
      type,
      name: group,
      group,
      key: keys[type] ?? openaiUpstreamKey,
      base_url: upstream.url,
      models: defaultModel,
      ...(type === 24 ? { model_mapping: JSON.stringify({ [defaultModel]: geminiModel }) } : {}),
    });
    const userId = await createUser(server, { username: group, group, quota: 50_000_000 });
    return { channel, userId };
  }

  /** Runs one channel's plain and tool-using turns, each from a fresh home, and reads what was billed. */
  async function onChannel(group: string, upstream: MockUpstream, reported: ReportedUsage[], type: number) {
    const { channel, userId } = await channelUser(group, upstream, type);
    const token = await createToken(server, userId);
    const before = await balances(server, userId, token.id);
    const runs: ClaudeRun[] = [];
    for (const prompt of ['Say hi.', `Read the file ${filePath} and tell me the secret word.`]) {
      const home = mkdtempSync(join(folder, 'home-'));
      const cwd = join(folder, 'work');
      runs.push(await runClaude(server, `sk-${token.key}`, prompt, home, cwd));
    }
    const after = await balances(server, userId, token.id);
    const logs = await server.context.logDatabase.db
      .selectFrom('logs')
      .select(['quota', 'prompt_tokens', 'completion_tokens', 'channel_id', 'model_name'])
      .where('user_id', '=', userId)
      .where('type', '=', 2)
      .execute();
    return { channel, runs, before, after, logs, requests: upstream.requests, reported };
  }

  /** Every upstream call has one consume log with the usage it reported; the user paid exactly their sum. */
  function expectBilledExactly(outcome: Awaited<ReturnType<typeof onChannel>>) {
    const { before, after, logs, reported, channel } = outcome;
    const pairs = (list: { prompt: number; completion: number }[]) =>
      list.map(({ prompt, completion }) => `${prompt}/${completion}`).sort();
    expect(pairs(logs.map((log) => ({ prompt: log.prompt_tokens, completion: log.completion_tokens })))).toEqual(
      pairs(reported),
    );
    const billedModel = channel.type === 24 ? geminiModel : defaultModel;
    for (const log of logs) expect(log).toMatchObject({ channel_id: channel.id, model_name: billedModel });
    const charged = logs.reduce((sum, log) => sum + Number(log.quota), 0);
    expect(charged).toBeGreaterThan(0);
    expect(before.userQuota - after.userQuota).toBe(charged);
    expect(after.userUsed - before.userUsed).toBe(charged);
    expect(after.consumeLogs - before.consumeLogs).toBe(reported.length);
  }

  test('on a Claude channel: a plain turn and a tool turn, every field passed through, billed exactly', async () => {
    const outcome = await onChannel('claude', claudeUpstream, claudeUsage, 14);
    const [plain, tool] = outcome.runs;
    expect(plain!.result, plain!.output).toMatchObject({ is_error: false, result: 'Hello from Claude.' });
    expect(tool!.result, tool!.output).toMatchObject({ is_error: false, result: 'The file says periwinkle.' });
    const first = outcome.requests.find((request) => request.json?.stream === true)!;
    expect(first.json).toMatchObject({
      model: defaultModel,
      thinking: { type: 'adaptive' },
      context_management: expect.any(Object),
      output_config: expect.any(Object),
    });
    expect(first.headers['anthropic-beta']).toContain('claude-code-20250219');
    const turns = first.json!.messages as ClaudeTurn[];
    expect(turns.map((turn) => turn.role)).toContain('system');
    const toolResult = outcome.requests.find((request) => JSON.stringify(request.json).includes(fileText));
    expect(toolResult, 'the Read tool ran and its result went upstream').toBeDefined();
    expectBilledExactly(outcome);
  }, 120_000);

  test('on an OpenAI channel: the same turns converted (system turns in place), billed exactly', async () => {
    const outcome = await onChannel('openai', openaiUpstream, openaiUsage, 1);
    const [plain, tool] = outcome.runs;
    expect(plain!.result, plain!.output).toMatchObject({ is_error: false, result: 'Hello from GPT.' });
    expect(tool!.result, tool!.output).toMatchObject({ is_error: false, result: 'The file says periwinkle.' });
    const first = outcome.requests[0]!;
    const roles = (first.json!.messages as ChatTurn[]).map((turn) => turn.role);
    expect(roles[0]).toBe('system');
    expect(roles.slice(1)).toContain('system');
    expect(first.body).not.toMatch(/output_config|context_management|cache_control/);
    const toolResult = outcome.requests.find((request) =>
      (request.json?.messages as ChatTurn[]).some(
        (turn) => turn.role === 'tool' && String(turn.content).includes(fileText),
      ),
    );
    expect(toolResult, 'the Read tool ran and its result went upstream').toBeDefined();
    expectBilledExactly(outcome);
  }, 120_000);

  test('on a Gemini channel: the same turns converted to generateContent, billed exactly', async () => {
    const outcome = await onChannel('gemini', geminiUpstream, geminiUpstream.reported, 24);
    const [plain, tool] = outcome.runs;
    expect(plain!.result, plain!.output).toMatchObject({ is_error: false, result: 'Hello from Gemini.' });
    expect(tool!.result, tool!.output).toMatchObject({ is_error: false, result: 'The file says periwinkle.' });
    for (const request of outcome.requests)
      expect(request.path).toBe(`/v1beta/models/${geminiModel}:streamGenerateContent`);
    const first = outcome.requests[0]!.json!;
    expect(first.systemInstruction).toBeDefined();
    expect(JSON.stringify(first.tools)).toContain('"name":"Read"');
    const toolResult = outcome.requests.find((request) => request.body.includes('functionResponse'));
    expect(toolResult?.body, 'the Read tool ran and its result went upstream').toContain('periwinkle');
    expectBilledExactly(outcome);
    geminiRequests = outcome.requests;
  }, 120_000);

  // Gemini refuses a maxOutputTokens above the model's limit ("the supported range is from 1 (inclusive) to
  // 65537 (exclusive)"): the adaptor lowers Claude Code's 128000 to it (issue 30, point 1).
  test('on a Gemini channel: Claude Code’s 128000 output tokens lowered to the model’s 65,536', () => {
    for (const request of geminiRequests)
      expect((request.json!.generationConfig as { maxOutputTokens?: number }).maxOutputTokens).toBe(65_536);
  });

  // Gemini 3 models refuse a function call sent back without the thought signature they gave it ("Function call
  // is missing a thought_signature"); Claude's tool_use block has no field for it: it rides in the tool_use id.
  test('on a Gemini channel: the Read call goes back with the thought signature Gemini gave it', () => {
    const toolResult = geminiRequests.find((request) => request.body.includes('functionResponse'));
    expect(toolResult!.body).toMatch(/"thoughtSignature":"sig-\d+"/);
  });

  test('the dropped header names what an OpenAI channel never got, and is absent on a Claude channel', async () => {
    const ask = async (userId: number) => {
      const token = await createToken(server, userId);
      const answer = await fetch(`${server.url}/v1/messages`, {
        method: 'POST',
        headers: {
          'x-api-key': `sk-${token.key}`,
          'content-type': 'application/json',
          'anthropic-version': '2023-06-01',
        },
        body: JSON.stringify({
          model: defaultModel,
          max_tokens: 64,
          stream: true,
          output_config: { effort: 'low' },
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'hi' },
                { type: 'search_result', source: 's' },
              ],
            },
          ],
        }),
      });
      await answer.text();
      expect(answer.status).toBe(200);
      return answer.headers.get(droppedHeader);
    };
    const viaOpenAI = await channelUser('openai-header', openaiUpstream, 1);
    expect(await ask(viaOpenAI.userId)).toBe('output_config,messages.0.content.1(search_result)');
    const viaClaude = await channelUser('claude-header', claudeUpstream, 14);
    expect(await ask(viaClaude.userId)).toBeNull();
    expect(claudeUpstream.requests.at(-1)!.json).toMatchObject({ output_config: { effort: 'low' } });
  });
});
