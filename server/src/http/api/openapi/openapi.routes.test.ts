import { apiOperations, relayOperations, type User } from '@modelgate/wire';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { channel, log, redemption, token } from '@modelgate/wire';
import type { PresentedChannel } from '../../../domain/channel/channel.presenter.js';
import type { PresentedLog } from '../../../domain/log/log.presenter.js';
import type { presentRedemption } from '../../../domain/redemption/redemption.presenter.js';
import type { PresentedToken } from '../../../domain/token/token.presenter.js';
import type { PresentedUser } from '../../../domain/user/user.presenter.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';

type Json = Record<string, unknown>;

/** Every `$ref` in a JSON value. */
const refsIn = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(refsIn)
    : value && typeof value === 'object'
      ? Object.entries(value).flatMap(([key, inner]) =>
          key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner),
        )
      : [];

/** Reads `#/a/b` in the document. */
const resolve = (document: Json, pointer: string): unknown =>
  pointer
    .slice(2)
    .split('/')
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Json)[key] : undefined), document);

/**
 * `METHOD path` of every route the app registered, from Fastify's route tree (each line a path segment below
 * its parent, with the methods of the node); HEAD (added for each GET) and the CORS preflights are left out.
 */
function registeredRoutes(tree: string): Set<string> {
  const routes = new Set<string>();
  const segments: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^(.*?)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!match) continue;
    const [, indent = '', segment = '', methods = ''] = match;
    const depth = indent.length / 4;
    segments.length = depth;
    segments.push(segment);
    const path = segments.join('');
    for (const method of methods.split(', '))
      if (method && method !== 'HEAD' && method !== 'OPTIONS') routes.add(`${method} ${path.replace(/\/$/, '')}`);
  }
  return routes;
}

describe('GET /api/openapi.json', () => {
  let server: TestServer;
  let document: Json;
  beforeAll(async () => {
    server = await startTestServer();
    const response = await fetch(`${server.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    document = (await response.json()) as Json;
  });
  afterAll(() => server.close());

  it('is an OpenAPI 3.1 document whose paths all have operations and whose references all resolve', () => {
    expect(document.openapi).toBe('3.1.0');
    const paths = document.paths as Record<string, Record<string, Json>>;
    expect(Object.keys(paths).length).toBeGreaterThan(50);
    for (const [path, operations] of Object.entries(paths)) {
      expect(path).toMatch(/^\//);
      const methods = Object.keys(operations);
      expect(methods.length, path).toBeGreaterThan(0);
      for (const method of methods) {
        expect(['get', 'post', 'put', 'patch', 'delete', 'head']).toContain(method);
        expect(operations[method]?.responses, `${method} ${path}`).toHaveProperty('200');
        // Every {parameter} of the path is described.
        const described = ((operations[method]?.parameters ?? []) as Json[]).filter((p) => p.in === 'path');
        for (const [, name] of path.matchAll(/\{(\w+)\}/g))
          expect(
            described.map((p) => p.name),
            `${method} ${path}`,
          ).toContain(name);
      }
    }
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of refs) expect(resolve(document, ref), ref).toBeTypeOf('object');
    const schemes = Object.keys((document.components as Json).securitySchemes as Json);
    for (const operation of Object.values(paths).flatMap(Object.values))
      for (const requirement of operation.security as Json[])
        for (const scheme of Object.keys(requirement)) expect(schemes).toContain(scheme);
  });

  it('describes exactly the routes the server registered under /api, /v1 and /dashboard', () => {
    const operations = [...apiOperations, ...relayOperations];
    const documented = operations.map((operation) => `${operation.method} ${operation.path.replace(/\/$/, '')}`);
    expect(new Set(documented).size).toBe(documented.length);
    // Each described route exists (Fastify ignores a trailing slash).
    const exists = (method: string, url: string) => server.app.hasRoute({ method: method as 'GET', url });
    const missing = operations.filter(
      ({ method, path }) => !exists(method, path) && !exists(method, path.replace(/\/$/, '')),
    );
    expect(missing.map(({ method, path }) => `${method} ${path}`)).toEqual([]);
    // Each registered route is described (wildcard routes print as `*` in the tree and are checked above only).
    // A new route without a description fails here: add it to wire/src/api-operations.ts or relay-operations.ts.
    const registered = [...registeredRoutes(server.app.printRoutes({ commonPrefix: false }))].filter((route) =>
      /^\w+ \/(api|v1|dashboard)\//.test(route),
    );
    expect(registered.filter((route) => !documented.includes(route))).toEqual([]);
  });

  it('keeps secrets out: no option values, no keys', () => {
    const text = JSON.stringify(document);
    expect(text).not.toContain(server.context.config.SESSION_SECRET);
    expect(text).not.toMatch(/sk-[A-Za-z0-9]{20,}/);
  });
});

// The presenters write what the wire schemas say the console reads (checked by the typecheck).
expectTypeOf<PresentedUser>().toEqualTypeOf<User>();
expectTypeOf<PresentedToken>().toEqualTypeOf<z.infer<typeof token>>();
expectTypeOf<PresentedChannel>().toEqualTypeOf<z.infer<typeof channel>>();
expectTypeOf<PresentedLog>().toEqualTypeOf<z.infer<typeof log>>();
expectTypeOf<ReturnType<typeof presentRedemption>>().toEqualTypeOf<z.infer<typeof redemption>>();
