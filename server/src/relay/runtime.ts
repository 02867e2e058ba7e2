import type { AppContext } from '../context.js';
import { UpstreamClient } from './pipeline/upstream-client.js';

/** The relay's long-lived state for one server (one AppContext): HTTP pools, routing, caches, batches. */
export interface RelayRuntime {
  client: UpstreamClient;
}

const runtimes = new WeakMap<AppContext, RelayRuntime>();

/** The relay state of this context, created on first use; its pools close with the context. */
export function relayRuntime(context: AppContext): RelayRuntime {
  let runtime = runtimes.get(context);
  if (runtime) return runtime;
  const client = new UpstreamClient(context.config.RELAY_TIMEOUT * 1000);
  runtime = { client };
  runtimes.set(context, runtime);
  context.shutdownTasks.push(() => client.close());
  return runtime;
}
