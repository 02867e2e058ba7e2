import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * Where a node serves from: its host and listening address, which no two live processes share. A process
 * started there again is the same node's next run (its predecessor is dead: kill -9, crash, restart), so it
 * may give back what the predecessor held at once (reservation-sweeper.ts). A node on an ephemeral port
 * (PORT=0) has no such place: a random one.
 */
function seatOf(config: { HOST: string; PORT: number }): string {
  if (config.PORT === 0) return randomBytes(6).toString('hex');
  return createHash('sha256').update(`${hostname()}|${config.HOST}:${config.PORT}`).digest('hex').slice(0, 12);
}

/** A process's id in `relay_nodes` and in the reservations it writes: `<seat>-<run>`, new at every start. */
export const newNodeId = (config: { HOST: string; PORT: number }) =>
  `${seatOf(config)}-${randomBytes(6).toString('hex')}`;

/** What every id of a run of this node starts with (its seat and the dash). */
export const seatPrefix = (nodeId: string) => nodeId.slice(0, nodeId.indexOf('-') + 1);

/**
 * What this node's calls in flight hold: the trusted calls' estimates per user and token (in memory only),
 * and the ids of the reservation rows it has written and not yet closed (so its own sweep can tell a
 * leaked row from a call still running).
 */
export class InFlightHolds {
  private readonly users = new Map<number, number>();
  private readonly tokens = new Map<number, number>();
  private readonly reservations = new Set<string>();
  private sequence = 0;
  private trustedCalls = 0;

  heldByUser(userId: number): number {
    return this.users.get(userId) ?? 0;
  }

  heldByToken(tokenId: number): number {
    return this.tokens.get(tokenId) ?? 0;
  }

  hold(userId: number, tokenId: number, amount: number): void {
    this.users.set(userId, this.heldByUser(userId) + amount);
    this.tokens.set(tokenId, this.heldByToken(tokenId) + amount);
    this.trustedCalls += 1;
  }

  release(userId: number, tokenId: number, amount: number): void {
    const user = this.heldByUser(userId) - amount;
    if (user > 0) this.users.set(userId, user);
    else this.users.delete(userId);
    const token = this.heldByToken(tokenId) - amount;
    if (token > 0) this.tokens.set(tokenId, token);
    else this.tokens.delete(tokenId);
    this.trustedCalls -= 1;
  }

  nextReservationId(nodeId: string): string {
    this.sequence += 1;
    return `${nodeId}-${this.sequence.toString(36)}`;
  }

  open(id: string): void {
    this.reservations.add(id);
  }

  close(id: string): void {
    this.reservations.delete(id);
  }

  isOpen(id: string): boolean {
    return this.reservations.has(id);
  }

  /** Calls in flight with a database reservation (their rows in `reservations`), for /metrics and tests. */
  get openReservations(): number {
    return this.reservations.size;
  }

  /** Trusted calls in flight, held in this node's memory only, for /metrics. */
  get trustedHolds(): number {
    return this.trustedCalls;
  }
}
