import { z } from 'zod';
import { apiOperations } from './api-operations.js';
import * as anthropicSchemas from './anthropic.js';
import * as authSchemas from './auth.js';
import * as channelSchemas from './channel.js';
import { balanceAnswer, channel, channelTestAnswer, openAIModelList } from './channel.js';
import { emptyAnswer, envelope } from './envelope.js';
import * as logSchemas from './log.js';
import { log, logStat, usagePoint } from './log.js';
import type { Access, Operation } from './operation.js';
import * as optionSchemas from './option.js';
import { optionEntry } from './option.js';
import { runProgress } from './progress.js';
import * as redemptionSchemas from './redemption.js';
import { redemption } from './redemption.js';
import * as relaySchemas from './relay.js';
import { openAIError } from './relay.js';
import { relayOperations } from './relay-operations.js';
import { outcomeWindow, releaseInfo, serverStatus, serviceStatusReport } from './status.js';
import * as tokenSchemas from './token.js';
import { token } from './token.js';
import * as userSchemas from './user.js';
import { dashboardRow, user } from './user.js';

/** The answer shapes that get a component of their own, referenced wherever they appear. */
const namedAnswers: Record<string, z.ZodType> = {
  User: user,
  Token: token,
  Channel: channel,
  Redemption: redemption,
  Log: log,
  LogStat: logStat,
  UsagePoint: usagePoint,
  RunProgress: runProgress,
  OptionEntry: optionEntry,
  ServerStatus: serverStatus,
  OutcomeWindow: outcomeWindow,
  ServiceStatusReport: serviceStatusReport,
  ReleaseInfo: releaseInfo,
  DashboardRow: dashboardRow,
  ChannelTestAnswer: channelTestAnswer,
  BalanceAnswer: balanceAnswer,
  OpenAIModelList: openAIModelList,
  OpenAIError: openAIError,
  EmptyAnswer: emptyAnswer,
  ErrorAnswer: z.object({ success: z.literal(false), message: z.string() }),
};

const pascal = (words: string[]) => words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');

/** Request bodies are named after their export (`createTokenBody` → `CreateTokenBody`). */
const bodyNames = new Map<unknown, string>(
  [
    anthropicSchemas,
    authSchemas,
    channelSchemas,
    logSchemas,
    optionSchemas,
    redemptionSchemas,
    relaySchemas,
    tokenSchemas,
    userSchemas,
  ]
    .flatMap((module) => Object.entries(module))
    .filter(([name, value]) => value instanceof z.ZodType && /(Body|Fields)$/.test(name))
    .map(([name, schema]) => [schema, pascal([name])]),
);

/** Fastify's `/api/token/:id` and `/v1/oneapi/proxy/:channelId/*` in OpenAPI's spelling. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{path}');

/** `GET /api/token/:id` → `getApiTokenById`. */
export function operationId({ method, path }: Pick<Operation, 'method' | 'path'>): string {
  const words = path
    .split(/[/_.]/)
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? `by-${segment.slice(1)}` : segment === '*' ? 'path' : segment))
    .flatMap((segment) => segment.split('-'));
  return method.toLowerCase() + pascal(words);
}

const accessSecurity: Record<Access, Record<string, string[]>[]> = {
  public: [],
  user: [{ session: [] }, { accessToken: [] }],
  admin: [{ session: [] }, { accessToken: [] }],
  root: [{ session: [] }, { accessToken: [] }],
  'api-key': [{ apiKey: [] }],
};

const securitySchemes = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'session',
    description: 'The session of POST /api/user/login. Writes also send the XSRF-TOKEN cookie back as X-XSRF-TOKEN.',
  },
  accessToken: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'The access token of GET /api/user/token, for scripts.',
  },
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key (sk-…), optionally suffixed with -<channel id>. /v1/messages also reads x-api-key.',
  },
};

type JsonSchema = Record<string, unknown>;

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;

/** Path or query parameters from an object schema's properties. */
function parameters(where: 'path' | 'query', schema: z.ZodType | undefined): JsonSchema[] {
  if (!schema) return [];
  const { properties = {}, required = [] } = jsonSchema(schema, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.includes(name),
    schema: property,
  }));
}

/** Every `{name}` of the path, described by the operation's params or else as text. */
function pathParameters(operation: Operation): JsonSchema[] {
  const described = parameters('path', operation.params);
  const names = [...openApiPath(operation.path).matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
  return names.map(
    (name) =>
      described.find((parameter) => parameter.name === name) ?? {
        name,
        in: 'path',
        required: true,
        schema: { type: 'string' },
      },
  );
}

/**
 * The OpenAPI 3.1 document of /api and /v1, generated from the wire schemas: requests as the server reads
 * them (zod's input side), answers as it writes them (the output side).
 */
export function openApiDocument(version: string): JsonSchema {
  const requests = z.registry<{ id: string }>();
  const answers = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(namedAnswers)) answers.add(schema, { id });
  const register = (registry: typeof answers, schema: z.ZodType, id: string) => {
    if (!registry.has(schema)) registry.add(schema, { id });
    return ref(registry.get(schema)!.id);
  };

  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const operation of [...apiOperations, ...relayOperations]) {
    const id = operationId(operation);
    const management = operation.path.startsWith('/api/');
    const answer =
      management && !operation.raw ? (operation.answer ? envelope(operation.answer) : emptyAnswer) : operation.answer;
    const content = (schema: JsonSchema) => ({ [operation.mediaType ?? 'application/json']: { schema } });
    const body = operation.body
      ? {
          'application/json': {
            schema: register(requests, operation.body, bodyNames.get(operation.body) ?? `${pascal([id])}Body`),
          },
        }
      : operation.form
        ? {
            'multipart/form-data': {
              schema: register(requests, operation.form, bodyNames.get(operation.form) ?? `${pascal([id])}Form`),
            },
          }
        : undefined;
    const path = (paths[openApiPath(operation.path)] ??= {});
    path[operation.method.toLowerCase()] = {
      operationId: id,
      summary: operation.summary,
      tags: [operation.path.split('/')[management ? 2 : 1] ?? ''],
      security: accessSecurity[operation.access],
      ...(['admin', 'root'].includes(operation.access) ? { 'x-required-role': operation.access } : {}),
      parameters: [...pathParameters(operation), ...parameters('query', operation.query)],
      ...(body ? { requestBody: { required: true, content: body } } : {}),
      responses: {
        '200': {
          description: answer ? 'Success' : 'The upstream answer, passed through',
          ...(answer ? { content: content(register(answers, answer, `${pascal([id])}Answer`)) } : {}),
        },
        default: {
          description: management ? '`success: false` with the reason' : 'An error in the OpenAI shape',
          content: { 'application/json': { schema: ref(management ? 'ErrorAnswer' : 'OpenAIError') } },
        },
      },
    };
  }

  const uri = (id: string) => `#/components/schemas/${id}`;
  const requestSchemas = z.toJSONSchema(requests, { io: 'input', uri, unrepresentable: 'any' }).schemas;
  const answerSchemas = z.toJSONSchema(answers, { io: 'output', uri, unrepresentable: 'any' }).schemas;
  const schemas: Record<string, JsonSchema> = {};
  for (const [id, schema] of [...Object.entries(requestSchemas), ...Object.entries(answerSchemas)]) {
    const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema;
    schemas[id] = rest;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'ModelGate',
      version,
      description: 'The management API (/api) and the OpenAI-compatible relay (/v1) of a ModelGate gateway.',
    },
    paths,
    components: { schemas, securitySchemes },
  };
}
