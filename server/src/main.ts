import type { IncomingMessage } from 'node:http';
import { createServer } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import pino from 'pino';
import { buildApp } from './app.js';
import { ConfigError, checkEnvironment, withSessionSecret } from './config/env.js';
import { closeContext, createContext } from './context.js';
import { startJobs } from './jobs/scheduler.js';
import { relayRuntime } from './relay/runtime.js';
import { beat, giveBackEarlierRuns, leave, sweepReservations } from './relay/billing/reservation-sweeper.js';

/**
 * Memory: a relay's garbage dies young, yet on a large machine V8 lets the old generation grow to 4× what
 * survived the last full collection before collecting again, so a busy process doubles its memory for no
 * gain. 50 % growth keeps it near its live size; less (30 % until 2026-11-30) made agents' long requests, whose
 * bodies outlive a young collection, run a full collection every few dozen calls (a third more CPU a call).
 * The young generation (8 MB semi-spaces) can only be sized at launch: `npm start` passes
 * --max-semi-space-size. See decision 0006. An operator's own setting (NODE_OPTIONS or the command line) wins.
 */
function tuneMemory(): void {
  const launchFlags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  if (launchFlags.includes('heap-growing-percent')) return;
  try {
    setFlagsFromString('--heap-growing-percent=50');
  } catch {
    // A Node whose V8 refuses flags after start keeps its defaults: more memory, nothing worse.
  }
}

/** How long a SIGTERM waits for requests in flight before it drops them and exits. */
const shutdownGraceMs = 30_000;

/** A slave that meets a database without tables: the driver's "no such table" in every engine's words. */
const missingSchema = (error: unknown) =>
  /no such table|relation .* does not exist|Table .* doesn't exist/i.test((error as Error)?.message ?? '');

/** The one line an operator needs when the address cannot be listened on, naming the variable to change. */
function listenProblem(error: unknown, port: number, host: string): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'EADDRINUSE')
    return `invalid setting PORT: ${port} on ${host} is in use by another process: wants a free port`;
  if (code === 'EACCES')
    return `invalid setting PORT: ${port} needs privileges this process lacks: wants a port above 1023`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `invalid setting HOST: ${host} is no address of this machine: wants one of its addresses, 0.0.0.0 or ::`;
  return `cannot listen on ${host}:${port}: ${(error as Error)?.message ?? String(error)}`;
}

/** Binds the address and lets it go at once; the problem in one line, or null when it can be listened on. */
function cannotListen(port: number, host: string): Promise<string | null> {
  if (port === 0) return Promise.resolve(null);
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error) => resolve(listenProblem(error, port, host)));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(null)));
  });
}

async function main(): Promise<void> {
  tuneMemory();
  let checked;
  try {
    checked = checkEnvironment(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // Before the database is opened or root created: a node that cannot listen must leave nothing behind.
  const portProblem = await cannotListen(checked.PORT, checked.HOST);
  if (portProblem) {
    console.error(portProblem);
    process.exit(1);
  }
  const config = withSessionSecret(checked);
  const logger = pino({ level: config.LOG_LEVEL });
  const context = await createContext(config, logger).catch((error: unknown) => {
    if (config.isMaster || !missingSchema(error)) throw error;
    console.error(
      `NODE_TYPE=slave runs no migrations and this database has no tables yet: start the master (NODE_TYPE=master) on it first (${(error as Error).message})`,
    );
    process.exit(1);
  });
  const app = await buildApp(context);
  // Charges an earlier run kept in its journal (writes that failed, then a stop or a crash) go in first.
  await relayRuntime(context).settlements.recoverJournals();
  // Requests in flight (the relay's fast path included), to say at shutdown what had to be dropped.
  const inFlight = new Set<IncomingMessage>();
  app.server.on('request', (request: IncomingMessage, response) => {
    inFlight.add(request);
    response.once('close', () => inFlight.delete(request));
  });
  const describeInFlight = () => [...inFlight].map((request) => `${request.method} ${request.url?.split('?')[0]}`);
  // Alive before the first call; what this node's previous run held, and (master) what dead nodes left
  // reserved, is given back at once.
  await beat(context);
  await giveBackEarlierRuns(context);
  if (config.isMaster) await sweepReservations(context, 'dead-nodes');
  context.shutdownTasks.push(() => leave(context));
  const jobs = startJobs(context);
  await app.listen({ port: config.PORT, host: config.HOST }).catch(async (error: unknown) => {
    // Taken between the check above and now: the same one line, after a clean stop.
    console.error(listenProblem(error, config.PORT, config.HOST));
    await jobs.stop();
    await closeContext(context);
    process.exit(1);
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // The listener closes and idle keep-alive connections are closed at once (app.close); requests in flight
    // get the grace period, then their connections are cut and the process exits.
    logger.info({ signal, requests: inFlight.size }, 'shutting down: draining requests');
    const forceExit = setTimeout(() => {
      const dropped = describeInFlight();
      logger.error(
        { dropped },
        `shutdown took over ${shutdownGraceMs / 1000} s: dropping ${dropped.length} requests, exiting`,
      );
      app.server.closeAllConnections();
      process.exit(1);
    }, shutdownGraceMs);
    forceExit.unref();
    await jobs.stop();
    await app.close();
    await closeContext(context);
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

// A start that fails (a database that refuses the DSN's user, a folder that cannot be written) says why in one
// line; the stack is for developers (LOG_LEVEL=debug).
main().catch((error: unknown) => {
  const debug = /^(debug|trace)$/.test(process.env.LOG_LEVEL ?? '');
  console.error(debug ? error : `cannot start: ${(error as Error)?.message ?? String(error)}`.split('\n')[0]);
  process.exit(1);
});
