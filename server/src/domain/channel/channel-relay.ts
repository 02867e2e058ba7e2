import type { AppContext } from '../../context.js';
import type { ChannelRow } from '../../db/tables.js';

export interface ProbeResult {
  success: boolean;
  /** The model's reply on success, else what went wrong. */
  message: string;
  elapsedMs: number;
  /** The model asked for (before the channel's mapping). */
  model: string;
  error?: { status: number; type: string; code: string; message: string };
}

/**
 * What the channel services need from this node's relay. The relay provides it when its runtime starts
 * (relay/runtime.ts), so that the domain never imports the relay.
 */
export interface ChannelRelay {
  /** Re-reads these channels into this node's routes; resolves once a call on this node sees them. */
  refresh(ids: readonly number[]): Promise<void>;
  /** Sends the test prompt through the channel's adaptor. */
  probe(channel: ChannelRow, model: string): Promise<ProbeResult>;
}

const relays = new WeakMap<AppContext, ChannelRelay>();

export function provideChannelRelay(context: AppContext, relay: ChannelRelay): void {
  relays.set(context, relay);
}

/** This node's relay; undefined before it started, when it has no routes to refresh yet. */
export const channelRelay = (context: AppContext): ChannelRelay | undefined => relays.get(context);
