import type { RequestHandler } from 'express';
import type { Connection } from 'mongoose';
import type { Logger } from './logger';
import { pingMongo } from './mongo';
import { rejectAfter } from './time-limits';

export interface MongoCircuitOptions {
  /** How often the database is pinged. */
  probeIntervalMs?: number;
  /** A ping slower than this counts as a failure. */
  probeTimeoutMs?: number;
  /** Failed pings in a row that open the circuit (a busy database may miss one). */
  failuresToOpen?: number;
}

/**
 * A circuit breaker in front of one MongoDB connection. It opens when the database stops
 * answering (pings fail or time out twice in a row, or the driver reports the connection lost)
 * and closes by itself on the first ping that succeeds. While it is open, requests are refused at once with a
 * 503 instead of each waiting for the driver's server selection (5 s) to give up.
 */
export class MongoCircuit {
  private openedAt: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly probeIntervalMs: number;
  private readonly probeTimeoutMs: number;
  private readonly failuresToOpen: number;
  private failedProbes = 0;

  constructor(
    private readonly connection: Connection,
    private readonly logger: Logger,
    options: MongoCircuitOptions = {},
  ) {
    this.probeIntervalMs = options.probeIntervalMs ?? 1_000;
    this.probeTimeoutMs = options.probeTimeoutMs ?? 1_000;
    this.failuresToOpen = options.failuresToOpen ?? 2;
  }

  start(): void {
    if (this.timer) return;
    this.connection.on('disconnected', this.onDisconnected);
    this.timer = setInterval(() => void this.probe(), this.probeIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    this.connection.off('disconnected', this.onDisconnected);
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private readonly onDisconnected = () => this.trip('the driver lost its connection');

  isOpen(): boolean {
    return this.openedAt !== null;
  }

  /** Opens the circuit: the database did not answer `reason`. */
  trip(reason: string): void {
    if (this.openedAt !== null) return;
    this.openedAt = Date.now();
    this.logger.warn({ reason }, 'mongodb unreachable: circuit open, answering 503 at once');
  }

  private close(): void {
    if (this.openedAt === null) return;
    const seconds = ((Date.now() - this.openedAt) / 1000).toFixed(1);
    this.openedAt = null;
    this.logger.info({ openSeconds: Number(seconds) }, 'mongodb answers again: circuit closed');
  }

  private async probe(): Promise<void> {
    try {
      await rejectAfter(pingMongo(this.connection), this.probeTimeoutMs, 'no answer to a ping');
      this.failedProbes = 0;
      this.close();
    } catch (error) {
      this.failedProbes += 1;
      if (this.failedProbes >= this.failuresToOpen) this.trip((error as Error).message);
    }
  }
}

/**
 * Answers a subgraph's GraphQL requests at once while the circuit is open: HTTP 200 with the
 * error in the body, as the gateway expects of a subgraph; the facade turns it into a 503.
 */
export function circuitGate(circuit: MongoCircuit, unavailable: () => object): RequestHandler {
  return (_req, res, next) => {
    if (!circuit.isOpen()) return next();
    res.json({ data: null, errors: [unavailable()] });
  };
}
