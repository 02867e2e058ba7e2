import { afterAll, beforeAll } from 'vitest';
import { ApiClient } from './api-client.js';
import { availableEngines, type Engine } from './engines.js';
import { startTestServer, type TestServer } from './test-server.js';

/** What the *.multinode tests of the user routes share: two nodes on one database and one cache. */

/** The engines two nodes can share, a database and a cache both reach: PostgreSQL with Redis. */
export async function sharedEngines(): Promise<Engine[]> {
  return (await availableEngines()).filter((engine) => engine.name === 'postgres' && engine.redis);
}

export interface TwoNodes {
  /** The first node (set once the suite's beforeAll has run). */
  readonly a: TestServer;
  /** A second node on node A's database. */
  readonly b: TestServer;
  /** The same signed-in browser (cookies and access token), pointed at node B. */
  onNodeB(client: ApiClient): ApiClient;
}

/** Starts node A and node B sharing `engine` before the suite's tests, and closes both after them. */
export function twoNodes(engine: Engine): TwoNodes {
  let nodeA: TestServer | undefined;
  let nodeB: TestServer | undefined;
  beforeAll(async () => {
    nodeA = await startTestServer({ engine });
    nodeB = await startTestServer({ engine, shareDatabaseWith: nodeA });
  });
  afterAll(async () => {
    await nodeB?.close();
    await nodeA?.close();
  });
  const started = (node: TestServer | undefined) => {
    if (!node) throw new Error('the two nodes start in beforeAll: read them inside a test');
    return node;
  };
  return {
    get a() {
      return started(nodeA);
    },
    get b() {
      return started(nodeB);
    },
    onNodeB(client) {
      const moved = new ApiClient(started(nodeB).url, client.accessToken);
      for (const [name, value] of client.cookies) moved.cookies.set(name, value);
      return moved;
    },
  };
}
