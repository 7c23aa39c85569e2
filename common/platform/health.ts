import { Router } from 'express';
import { rejectAfter } from './time-limits';

export interface ReadinessCheck {
  name: string;
  check(): Promise<unknown>;
}

const CHECK_TIMEOUT_MS = 2_000;

/** `/healthz` says the process is alive; `/readyz` says every dependency answers. */
export function healthRouter(checks: ReadinessCheck[]): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const results = await Promise.all(
      checks.map(async ({ name, check }) => {
        try {
          await rejectAfter(check(), CHECK_TIMEOUT_MS);
          return [name, 'ok'] as const;
        } catch (error) {
          return [name, error instanceof Error ? error.message : 'failed'] as const;
        }
      }),
    );
    const ready = results.every(([, state]) => state === 'ok');
    res
      .status(ready ? 200 : 503)
      .json({ status: ready ? 'ready' : 'not_ready', checks: Object.fromEntries(results) });
  });
  return router;
}

/**
 * One check per upstream service: its `path` (`/healthz`: up; `/readyz`: its own dependencies
 * answer too) must answer 2xx.
 */
export function upstreamChecks(
  urls: Record<string, string>,
  path: '/healthz' | '/readyz',
): ReadinessCheck[] {
  return Object.entries(urls).map(([name, url]) => ({
    name,
    check: async () => {
      const response = await fetch(new URL(path, url));
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
    },
  }));
}
