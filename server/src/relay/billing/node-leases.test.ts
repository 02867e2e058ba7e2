import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import { FaultUpstream } from '../../../test/fault-upstream.js';
import { callOnce, logsPerRequest, openReservations, type CallOutcome } from '../../../test/ledger-calls.js';
import { ledgerProblems, readLedger } from '../../../test/ledger.js';
import { clockOffset, startNodeProcess, type NodeProcess } from '../../../test/node-process.js';
import { createChannel, createToken, createUser } from '../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';

/**
 * Issue 29, points 7 and 8: what a node that died held comes back soon (its own next start gives it back at
 * once; otherwise the master, within 10 s with the default heartbeat), and the leases are read on the
 * database's clock, so a node whose clock drifted is neither taken for dead nor robbed of its holds.
 */
describe.each(await availableEngines())('node leases on $label', (engine) => {
  let observer: TestServer;
  let upstream: FaultUpstream;
  let nodeEnv: Record<string, string>;
  const running: NodeProcess[] = [];
  /** A slave restarted by the first test, killed by the second. */
  let slave: NodeProcess;

  beforeAll(async () => {
    upstream = await FaultUpstream.start();
    observer = await startTestServer({ engine });
    await createChannel(observer, { base_url: upstream.url, models: 'gpt-3.5-turbo,text-embedding-3-small' });
    const { config } = observer.context;
    nodeEnv = {
      ...(config.SQL_DSN ? { SQL_DSN: config.SQL_DSN } : { SQLITE_PATH: config.SQLITE_PATH }),
      ...(config.REDIS_CONN_STRING
        ? { REDIS_CONN_STRING: config.REDIS_CONN_STRING, REDIS_KEY_PREFIX: config.REDIS_KEY_PREFIX }
        : {}),
    };
    // The master, with the default heartbeat, sweeps for every test.
    await startNode({ NODE_TYPE: 'master' });
  }, 60_000);

  afterAll(async () => {
    for (const node of running) await node.stop();
    await observer?.close();
    await upstream?.close();
  }, 60_000);

  const startNode = async (env: Record<string, string>, nodeArgs: string[] = [], port?: number) => {
    const node = await startNodeProcess({ ...nodeEnv, ...env }, 30_000, nodeArgs, port);
    running.push(node);
    return node;
  };

  const crash = async (node: NodeProcess) => {
    await node.crash();
    running.splice(running.indexOf(node), 1);
  };

  /** A user too small to trust (every call writes a reservation) and a token of theirs. */
  const victim = async (name: string, quota: number) => {
    const userId = await createUser(observer, { username: `${name}-${engine.name}`, quota });
    const token = { ...(await createToken(observer, userId, { name })), name };
    return { userId, token, quota };
  };

  const ledgerOf = (userId: number, token?: { id: number; name: string }) =>
    readLedger(observer.context.database.db, userId, token, observer.context.logDatabase.db);

  /** `count` slow streams on `node`, held at a 100-token ceiling; resolves once each has its reservation row. */
  const streamsInFlight = async (node: NodeProcess, key: string, count: number) => {
    const openBefore = upstream.streamsOpen;
    const calls = Array.from({ length: count }, () => callOnce(node.url, key, 'stream', 'slow', 100));
    for (let waited = 0; upstream.streamsOpen < openBefore + count && waited < 500; waited++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(upstream.streamsOpen).toBeGreaterThanOrEqual(openBefore + count);
    return calls;
  };

  test('a node restarted on its host and port gives back what its killed run held before it answers', async () => {
    const { userId, token, quota } = await victim('restarted', 5_000);
    const node = await startNode({ NODE_TYPE: 'slave' });
    const calls = await streamsInFlight(node, token.key, 10);
    expect((await ledgerOf(userId)).openReservations).toBe(10);
    await crash(node);
    const severed: CallOutcome[] = await Promise.all(calls);
    expect(severed.every((outcome) => outcome.severed)).toBe(true);

    slave = await startNode({ NODE_TYPE: 'slave' }, [], node.port);
    // It answers: nothing its dead run held is still held.
    const ledger = await ledgerOf(userId, token);
    expect([ledger.openReservations, ledger.quota, ledger.givenBackLogs]).toEqual([0, quota, 10]);
    expect(ledgerProblems(ledger, quota)).toEqual([]);
    expect(await logsPerRequest(observer.context.logDatabase.db, severed)).toEqual([]);
    expect((await callOnce(slave.url, token.key, 'plain', 'ok')).status).toBe(200);
  }, 90_000);

  test("with the default heartbeat, a killed slave's holds are given back within 10 s", async () => {
    const { userId, token, quota } = await victim('dead-slave', 5_000);
    const calls = await streamsInFlight(slave, token.key, 10);
    await crash(slave);
    const killedAt = Date.now();
    await Promise.all(calls);
    let open = await openReservations(observer.context.database.db);
    while (open > 0 && Date.now() - killedAt < 45_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      open = await openReservations(observer.context.database.db);
    }
    const givenBackAfterMs = Date.now() - killedAt;
    console.log(`${engine.label}: a killed slave's holds given back ${givenBackAfterMs} ms after the kill`);
    expect(open).toBe(0);
    expect(givenBackAfterMs).toBeLessThanOrEqual(10_000);
    const ledger = await ledgerOf(userId, token);
    expect([ledger.quota, ledger.givenBackLogs]).toEqual([quota, 10]);
    expect(ledgerProblems(ledger, quota)).toEqual([]);
  }, 90_000);

  test('a slave whose clock runs 60 s behind keeps its holds: no give-back, one charge per call', async () => {
    const { userId, token, quota } = await victim('late-clock', 5_000);
    // The master sweeps every second, twice or more during each 2-second stream.
    const late = await startNode({ NODE_TYPE: 'slave' }, clockOffset(-60));
    const outcomes = await Promise.all(await streamsInFlight(late, token.key, 12));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(Array(12).fill(200));
    await fetch(`${late.url}/api/pricing`); // waits for the slave's pending charges
    expect(await openReservations(observer.context.database.db)).toBe(0);
    const ledger = await ledgerOf(userId, token);
    expect(ledger.givenBackLogs).toBe(0);
    expect(ledger.logCount).toBe(12);
    expect(ledgerProblems(ledger, quota)).toEqual([]);
    expect(await logsPerRequest(observer.context.logDatabase.db, outcomes)).toEqual([]);
  }, 90_000);
});
