import { setTimeout as sleep } from 'node:timers/promises';

type Probed<T> = T | null | undefined | false;

/**
 * Polls `probe` every `everyMs` (50 ms) until it returns a value (not null, undefined or false).
 * A probe that costs something, such as a point of a rate limit, may ask less often.
 */
export async function waitFor<T>(
  probe: () => Probed<T> | Promise<Probed<T>>,
  timeoutMs = 10_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

/**
 * Resolves once the clock has passed `instant`: for a rule about time itself (a key's expiry, a
 * cache entry's time to live) that nothing announces and that takes no injected clock. Waits as
 * long as the rule requires and no longer, where a fixed sleep guesses from wherever it starts.
 */
export async function waitUntil(instant: Date | number): Promise<void> {
  const at = typeof instant === 'number' ? instant : instant.getTime();
  // A timer may fire a millisecond early by Date.now(): check again rather than trust it.
  while (Date.now() <= at) await sleep(at - Date.now() + 1);
}
