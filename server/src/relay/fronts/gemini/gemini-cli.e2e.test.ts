import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cliBinary } from '../../../../test/clis/index.js';
import { runClientProcess } from '../../../../test/client-process.js';
import {
  openaiUpstreamKey,
  startScriptedGeminiUpstream,
  startScriptedOpenAIUpstream,
  type Script,
  type ScriptedUpstream,
} from '../../../../test/gemini-front-upstreams.js';
import { geminiMockKey } from '../../../../test/mock-upstreams/gemini.js';
import { balances, createChannel, createToken, createUser, setOption } from '../../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';

/** The real client, installed from npm into server/test/clis (`@google/gemini-cli`). */
const geminiBinary = cliBinary('gemini');
/** Refuses (and logs) every connection the client tries outside 127.0.0.1. */
const loopbackGuard = fileURLToPath(new URL('../../../../test/loopback-guard.mjs', import.meta.url));
/** The model the test asks for (the CLI's default flash model). */
const model = 'gemini-2.5-flash';
const fileText = 'the secret word is periwinkle';
/**
 * Without -m, Gemini CLI 0.61's router first asks its classifier model (gemini-3.5-flash-lite, recorded in
 * relay/agent-matrix/__fixtures__) which model to use, then calls one of its main models.
 */
const classifierModel = 'gemini-3.5-flash-lite';
const routedModels = ['gemini-3.1-pro-preview', 'gemini-3.5-flash'];
const prices = {
  [model]: { model: 1.5, completion: 4 },
  'gpt-4o-mini': { model: 0.5, completion: 2 },
  ...Object.fromEntries(routedModels.map((name) => [name, { model: 1.25, completion: 8 }])),
};

/** Gemini CLI's turns: read_file when asked to read a file, then what the file said; a greeting otherwise. */
const cliScript = (filePath: string): Script => ({
  toolCall: (prompt, tools) =>
    prompt.includes('Read the file') && tools.includes('read_file')
      ? { name: 'read_file', args: { file_path: filePath } }
      : undefined,
  answer: (_prompt, toolResult) =>
    toolResult === undefined
      ? 'Hello from the model.'
      : toolResult.includes('periwinkle')
        ? 'The file says periwinkle.'
        : 'No file.',
});

interface GeminiRun {
  code: number | null;
  result: { response?: string; error?: unknown } | undefined;
  output: string;
  /** Connections and lookups the guard refused (none expected). */
  refused: string[];
}

/**
 * `gemini -p <prompt> -o json` against the gateway, in a temp home and workspace, offline but for 127.0.0.1;
 * with `-m model` unless `routed` (then the CLI's router picks the model).
 */
async function runGemini(
  server: TestServer,
  key: string,
  prompt: string,
  home: string,
  cwd: string,
  routed = false,
): Promise<GeminiRun> {
  const settingsFolder = join(home, '.gemini');
  mkdirSync(settingsFolder, { recursive: true });
  writeFileSync(
    join(settingsFolder, 'settings.json'),
    JSON.stringify({
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      // The API key kind of auth: GOOGLE_GEMINI_BASE_URL alone selects "gateway", which headless mode refuses.
      security: { auth: { selectedType: 'gemini-api-key' } },
    }),
  );
  const guardLog = join(home, 'refused.log');
  const { code, stdout, stderr } = await runClientProcess(
    geminiBinary,
    ['-p', prompt, ...(routed ? [] : ['-m', model]), '-o', 'json', '--skip-trust'],
    {
      cwd,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        GEMINI_CLI_HOME: home,
        GOOGLE_GEMINI_BASE_URL: server.url,
        GEMINI_API_KEY: key,
        NODE_OPTIONS: `--import ${loopbackGuard}`,
        LOOPBACK_GUARD_LOG: guardLog,
        NO_COLOR: '1',
      },
      timeoutMs: 60_000,
    },
  );
  let result: GeminiRun['result'];
  try {
    result = JSON.parse(stdout.slice(stdout.indexOf('{'))) as GeminiRun['result'];
  } catch {
    result = undefined;
  }
  const refused = existsSync(guardLog) ? readFileSync(guardLog, 'utf8').split('\n').filter(Boolean) : [];
  return { code, result, output: `${stdout}\n${stderr}`, refused };
}

describe('Gemini CLI (the real client, headless) through the Gemini front', () => {
  let server: TestServer;
  let gemini: ScriptedUpstream;
  let openai: ScriptedUpstream;
  let folder: string;
  let filePath: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'mg-gemini-cli-'));
    filePath = join(folder, 'work', 'notes.txt');
    mkdirSync(join(folder, 'work'));
    writeFileSync(filePath, `${fileText}\n`);
    server = await startTestServer();
    gemini = await startScriptedGeminiUpstream(cliScript(filePath));
    openai = await startScriptedOpenAIUpstream(cliScript(filePath));
    const ratio = (pick: 'model' | 'completion') =>
      JSON.stringify(Object.fromEntries(Object.entries(prices).map(([name, price]) => [name, price[pick]])));
    await setOption(server, 'ModelRatio', ratio('model'));
    await setOption(server, 'CompletionRatio', ratio('completion'));
  });

  afterAll(async () => {
    await server?.close();
    await Promise.all([gemini?.close(), openai?.close()]);
    rmSync(folder, { recursive: true, force: true });
  });

  /** Runs a plain turn and a tool turn from fresh homes as a user of a channel of this type; reads the bill. */
  async function onChannel(kind: 'gemini' | 'openai') {
    const upstream = kind === 'gemini' ? gemini : openai;
    const channel = await createChannel(server, {
      type: kind === 'gemini' ? 24 : 1,
      name: kind,
      group: kind,
      key: kind === 'gemini' ? geminiMockKey : openaiUpstreamKey,
      base_url: upstream.url,
      models: model,
      ...(kind === 'openai' ? { model_mapping: JSON.stringify({ [model]: 'gpt-4o-mini' }) } : {}),
    });
    const userId = await createUser(server, { username: `cli-${kind}`, group: kind, quota: 9e7 });
    const token = await createToken(server, userId, { remain_quota: 5e7, unlimited_quota: false });
    const before = await balances(server, userId, token.id);
    const from = upstream.requests.length;
    const runs: GeminiRun[] = [];
    for (const prompt of ['Say hi.', `Read the file ${filePath} and tell me the secret word.`])
      runs.push(
        await runGemini(server, `sk-${token.key}`, prompt, mkdtempSync(join(folder, 'home-')), join(folder, 'work')),
      );
    const after = await balances(server, userId, token.id);
    const logs = await server.context.logDatabase.db
      .selectFrom('logs')
      .select(['quota', 'prompt_tokens', 'completion_tokens', 'channel_id', 'model_name'])
      .where('user_id', '=', userId)
      .where('type', '=', 2)
      .orderBy('id')
      .execute();
    return { channel, runs, before, after, logs, requests: upstream.requests.slice(from), upstream };
  }

  /** Every upstream call has its consume log at its exact price; the user and the key paid exactly their sum. */
  function expectBilledExactly(outcome: Awaited<ReturnType<typeof onChannel>>) {
    const { before, after, logs, upstream, channel } = outcome;
    const reported = upstream.reported.slice(-logs.length);
    expect(logs.length).toBe(outcome.requests.length);
    expect(logs.map((log) => [log.model_name, log.prompt_tokens, log.completion_tokens])).toEqual(
      reported.map((usage) => [usage.model, usage.prompt, usage.completion]),
    );
    for (const log of logs) {
      const price = prices[log.model_name as keyof typeof prices];
      expect(Number(log.quota)).toBe(
        Math.ceil((log.prompt_tokens + log.completion_tokens * price.completion) * price.model),
      );
      expect(log.channel_id).toBe(channel.id);
    }
    const charged = logs.reduce((sum, log) => sum + Number(log.quota), 0);
    expect(charged).toBeGreaterThan(0);
    expect(before.userQuota - after.userQuota).toBe(charged);
    expect(before.tokenRemain - after.tokenRemain).toBe(charged);
  }

  test('on a Gemini channel: a plain turn and a read_file turn, passed through as sent, billed exactly', async () => {
    const outcome = await onChannel('gemini');
    const [plain, tool] = outcome.runs;
    expect(plain!.result, plain!.output).toMatchObject({ response: 'Hello from the model.' });
    expect(tool!.result, tool!.output).toMatchObject({ response: 'The file says periwinkle.' });
    for (const run of outcome.runs) expect(run.refused, 'connections outside 127.0.0.1').toEqual([]);
    // One streamed call for the plain turn, two for the tool turn: each the CLI's body as it sent it.
    expect(outcome.requests.map((request) => `${request.path}?${request.query}`)).toEqual(
      Array(3).fill(`/v1beta/models/${model}:streamGenerateContent?alt=sse`),
    );
    const first = outcome.requests[0]!.json!;
    expect(first.generationConfig).toMatchObject({ topK: 64, thinkingConfig: { includeThoughts: true } });
    expect(JSON.stringify(first.tools)).toContain('"parametersJsonSchema"');
    const toolResult = outcome.requests.find((request) => request.body.includes('periwinkle'));
    expect(toolResult, 'read_file ran and its result went upstream').toBeDefined();
    // The model turn went back with the thought signature Gemini gave it.
    expect(toolResult!.body).toMatch(/"thoughtSignature":"sig-\d+"/);
    expectBilledExactly(outcome);
  }, 180_000);

  test('on an OpenAI channel: the same turns converted, billed exactly', async () => {
    const outcome = await onChannel('openai');
    const [plain, tool] = outcome.runs;
    expect(plain!.result, plain!.output).toMatchObject({ response: 'Hello from the model.' });
    expect(tool!.result, tool!.output).toMatchObject({ response: 'The file says periwinkle.' });
    for (const run of outcome.runs) expect(run.refused, 'connections outside 127.0.0.1').toEqual([]);
    expect(outcome.requests).toHaveLength(3);
    const first = outcome.requests[0]!.json!;
    expect(first).toMatchObject({ model: 'gpt-4o-mini', stream: true, temperature: 1, top_p: 0.95 });
    expect((first.messages as { role: string }[])[0]!.role).toBe('system');
    expect((first.tools as { function: { name: string } }[]).map((tool) => tool.function.name)).toContain('read_file');
    expect(outcome.requests[0]!.body).not.toMatch(/thinkingConfig|thoughtSignature|topK|top_k/);
    const toolResult = outcome.requests.find((request) =>
      ((request.json?.messages as { role: string; content: unknown }[] | undefined) ?? []).some(
        (message) => message.role === 'tool' && String(message.content).includes('periwinkle'),
      ),
    );
    expect(toolResult, 'read_file ran and its result went upstream').toBeDefined();
    expectBilledExactly(outcome);
  }, 180_000);
  test('without -m while no channel serves its router’s classifier model: a 404, then a main model at once, billed', async () => {
    const channel = await createChannel(server, {
      type: 24,
      name: 'routed',
      group: 'routed',
      key: geminiMockKey,
      base_url: gemini.url,
      models: routedModels.join(','),
    });
    const userId = await createUser(server, { username: 'cli-routed', group: 'routed', quota: 9e7 });
    const token = await createToken(server, userId, { remain_quota: 5e7, unlimited_quota: false });
    const before = await balances(server, userId, token.id);
    const from = gemini.requests.length;
    // Every model call reaching the gateway (the refused classifier's included), with when it came.
    const calls: { path: string; at: number }[] = [];
    const count = (incoming: IncomingMessage) => {
      if (incoming.url?.startsWith('/v1beta/models/'))
        calls.push({ path: incoming.url.split('?')[0]!, at: performance.now() / 1000 });
    };
    server.app.server.on('request', count);
    let run: GeminiRun;
    try {
      const home = mkdtempSync(join(folder, 'home-'));
      run = await runGemini(server, `sk-${token.key}`, 'Say hi.', home, join(folder, 'work'), true);
    } finally {
      server.app.server.off('request', count);
    }
    expect(run.result, run.output).toMatchObject({ response: 'Hello from the model.' });
    expect(run.refused, 'connections outside 127.0.0.1').toEqual([]);
    const classifier = calls.filter((call) => call.path.includes(classifierModel));
    const main = calls.filter((call) => routedModels.some((name) => call.path.includes(`/${name}:`)));
    const fallback = main[0]!.at - classifier[0]!.at;
    console.info(
      `gemini -p without -m: ${calls.map((call) => call.path).join(', ')}; main model ${fallback.toFixed(2)} s after the 404`,
    );
    // The router asked its classifier once, took the 404 as final and fell back at once (a 503 cost 79 s).
    expect(classifier).toHaveLength(1);
    expect(calls).toHaveLength(1 + main.length);
    expect(fallback).toBeLessThan(10);
    const requests = gemini.requests.slice(from);
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) expect(routedModels.some((name) => request.path.includes(`/${name}:`))).toBe(true);
    const after = await balances(server, userId, token.id);
    const logs = await server.context.logDatabase.db
      .selectFrom('logs')
      .select(['quota', 'prompt_tokens', 'completion_tokens', 'channel_id', 'model_name'])
      .where('user_id', '=', userId)
      .where('type', '=', 2)
      .orderBy('id')
      .execute();
    expectBilledExactly({ channel, runs: [run], before, after, logs, requests, upstream: gemini });
  }, 180_000);
});
