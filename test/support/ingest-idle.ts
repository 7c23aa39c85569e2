import type { IngestService } from '../../subgraphs/analytics/src/services/ingest.service';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once every event appended so far has been applied (tests, seeding, benchmarks). */
export async function waitUntilIdle(ingest: IngestService, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ingest.caughtUp())) {
    if (Date.now() > deadline) throw new Error('analytics ingestion did not catch up in time');
    await pause(20);
  }
}

/**
 * Resolves once the stream is idle and no day is due for sealing (with the default quiet time a
 * day is due ten minutes after its last event).
 */
export async function waitUntilSealed(ingest: IngestService, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await waitUntilIdle(ingest, Math.max(1, deadline - Date.now()));
    if ((await ingest.days.dueDays()).length === 0) return;
    if (Date.now() > deadline) throw new Error('analytics days were not sealed in time');
    await pause(50);
  }
}
