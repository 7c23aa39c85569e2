import type { Logger } from './logger';

export interface Stoppable {
  stop(): Promise<void>;
}

const SHUTDOWN_DEADLINE_MS = 10_000;

/**
 * The whole of a service's `main`: start it, stop it on SIGTERM/SIGINT within ten seconds, and
 * exit non-zero with a readable message when the start fails. Signals are handled from the first
 * moment: one that arrives while the service is still starting stops it as soon as it is up.
 */
export function runService(
  name: string,
  start: () => Promise<{ service: Stoppable; logger: Logger }>,
): void {
  let started: { service: Stoppable; logger: Logger } | null = null;
  let requested: string | null = null;
  let stopping = false;

  const shutdown = (signal: string) => {
    requested = signal;
    if (!started || stopping) return;
    stopping = true;
    const { service, logger } = started;
    logger.info({ signal }, `${name} stopping`);
    const deadline = setTimeout(() => {
      logger.error(`${name} did not stop within ${SHUTDOWN_DEADLINE_MS} ms; exiting`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
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
