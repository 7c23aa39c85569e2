import type { Logger } from './logger';

export interface Stoppable {
  stop(): Promise<void>;
}

/** How long stopping may take after the drain period (SHUTDOWN_DRAIN_SECONDS). */
const SHUTDOWN_DEADLINE_MS = 10_000;

/**
 * The whole of a service's `main`: start it, stop it on SIGTERM/SIGINT within its drain period
 * plus ten seconds, and
 * exit non-zero with a readable message when the start fails. Signals are handled from the first
 * moment: one that arrives while the service is still starting stops it as soon as it is up.
 */
export function runService(
  name: string,
  start: () => Promise<{ service: Stoppable; logger: Logger; drainMs?: number }>,
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
    const deadlineMs = drainMs + SHUTDOWN_DEADLINE_MS;
    const deadline = setTimeout(() => {
      logger.error(`${name} did not stop within ${deadlineMs} ms; exiting`);
      process.exit(1);
    }, deadlineMs);
    deadline.unref();
    service.stop().then(
      () => {
        logger.info(`${name} stopped`);
        logger.flush();
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, `${name} failed to stop cleanly`);
        process.exit(1);
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
