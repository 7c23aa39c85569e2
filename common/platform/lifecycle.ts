import type { Logger } from './logger';
import { settleWithin } from './time-limits';
import { stopTracing } from './tracing';

export interface Stoppable {
  stop(): Promise<void>;
}

/**
 * How long stopping may take after the drain period (SHUTDOWN_DRAIN_SECONDS) before the service
 * exits on its own; a supervisor (npm start) waits longer before it kills.
 */
export const SHUTDOWN_DEADLINE_MS = 10_000;

/** How long buffered spans may take to reach the collector once the service has stopped. */
const TRACE_FLUSH_MS = 2_000;

/**
 * The whole of a service's `main`: start it, stop it on SIGTERM/SIGINT within its drain period
 * plus `stopDeadlineMs` (ten seconds), and exit non-zero with a readable message when the start
 * fails or the stop outlasts its deadline. Signals are handled from the first moment: one that
 * arrives while the service is still starting stops it as soon as it is up.
 */
export function runService(
  name: string,
  start: () => Promise<{ service: Stoppable; logger: Logger; drainMs?: number }>,
  { stopDeadlineMs = SHUTDOWN_DEADLINE_MS }: { stopDeadlineMs?: number } = {},
): void {
  let started: { service: Stoppable; logger: Logger; drainMs?: number } | null = null;
  let requested: string | null = null;
  let stopping = false;

  const shutdown = (signal: string) => {
    requested = signal;
    if (!started || stopping) return;
    stopping = true;
    const { service, logger } = started;
    const drainMs = started.drainMs ?? 0;
    logger.info({ signal, drainMs }, `${name} stopping`);
    const deadlineMs = drainMs + stopDeadlineMs;
    const exit = (code: number) => {
      logger.flush();
      process.exit(code);
    };
    // Kept referenced: a stop that hangs on nothing (no socket or timer left) still ends with
    // this line and exit 1, not with an empty event loop's silent exit 0.
    setTimeout(() => {
      logger.error(`${name} did not stop within ${deadlineMs} ms; exiting`);
      exit(1);
    }, deadlineMs);
    service.stop().then(
      async () => {
        await settleWithin(stopTracing(), TRACE_FLUSH_MS);
        logger.info(`${name} stopped`);
        exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, `${name} failed to stop cleanly`);
        exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  start()
    .then((running) => {
      started = running;
      if (requested) shutdown(requested);
    })
    .catch((error: unknown) => {
      process.stderr.write(
        `${name} failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exit(1);
    });
}
