/** What is kept of an error group (one website and fingerprint) over some span of time. */
export interface ErrorMeta {
  message: string;
  stack: string | null;
  count: number;
  firstSeen: number;
  lastSeen: number;
  /** Path of the group's latest error by event time (the later arrival on a tie). */
  lastPath: string | null;
}

/**
 * Folds `later` (what arrived after) into `earlier`: counts add up, first and last seen follow the
 * events' times, message and stack stay those first stored.
 */
export function mergeErrorMeta(earlier: ErrorMeta | undefined, later: ErrorMeta): ErrorMeta {
  if (!earlier) return { ...later };
  return {
    message: earlier.message,
    stack: earlier.stack,
    count: earlier.count + later.count,
    firstSeen: Math.min(earlier.firstSeen, later.firstSeen),
    lastSeen: Math.max(earlier.lastSeen, later.lastSeen),
    lastPath: later.lastSeen >= earlier.lastSeen ? later.lastPath : earlier.lastPath,
  };
}
