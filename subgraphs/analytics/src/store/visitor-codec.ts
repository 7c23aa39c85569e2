import type { SessionState, VisitorState } from '../ingest/aggregate';

/**
 * Visitor states as stored (Redis hot tier, snapshot chunks): JSON with times in ms, since a
 * state travels through JSON.stringify and must come back with its Dates.
 */
type StoredSession = Omit<SessionState, 'startHour' | 'startDay'> & {
  startHour: number;
  startDay: number;
};
export type StoredVisitor = Omit<
  VisitorState,
  'firstSeen' | 'lastSeen' | 'lastPageviewAt' | 'session' | 'seenHourBucket'
> & {
  firstSeen: number;
  lastSeen: number;
  lastPageviewAt: number | null;
  session: StoredSession | null;
  seenHourBucket: number | null;
};

const ms = (date: Date | null | undefined) => (date ? date.getTime() : null);
const date = (value: number | null) => (value === null ? null : new Date(value));

export function encodeVisitor(state: VisitorState): string {
  const stored: StoredVisitor = {
    ...state,
    firstSeen: state.firstSeen.getTime(),
    lastSeen: state.lastSeen.getTime(),
    lastPageviewAt: ms(state.lastPageviewAt),
    seenHourBucket: ms(state.seenHourBucket),
    session: state.session
      ? {
          ...state.session,
          startHour: state.session.startHour.getTime(),
          startDay: state.session.startDay.getTime(),
        }
      : null,
  };
  return JSON.stringify(stored);
}

export const decodeVisitor = (json: string): VisitorState =>
  visitorFromStored(JSON.parse(json) as StoredVisitor);

export function visitorFromStored(stored: StoredVisitor): VisitorState {
  return {
    ...stored,
    firstSeen: new Date(stored.firstSeen),
    lastSeen: new Date(stored.lastSeen),
    lastPageviewAt: date(stored.lastPageviewAt),
    seenHourBucket: date(stored.seenHourBucket),
    session: stored.session
      ? {
          ...stored.session,
          startHour: new Date(stored.session.startHour),
          startDay: new Date(stored.session.startDay),
        }
      : null,
  };
}

/** One recorded replay session, kept under the UTC day its first chunk arrived in. */
export interface ReplayState {
  sessionId: string;
  visitorId: string;
  startedAt: number;
  lastActivity: number;
  chunks: number;
  bytes: number;
  entryPath: string;
  country: string | null;
  device: string | null;
  browser: string | null;
  os: string | null;
  /** The sequences counted, as inclusive ranges `[first, last]` (one, for a session sent in order). */
  sequences: Array<[number, number]>;
}

export function hasSequence(ranges: Array<[number, number]>, sequence: number): boolean {
  return ranges.some(([first, last]) => sequence >= first && sequence <= last);
}

/** The ranges with `sequence` added, sorted and merged. */
export function withSequence(
  ranges: Array<[number, number]>,
  sequence: number,
): Array<[number, number]> {
  const sorted = [...ranges, [sequence, sequence] as [number, number]].sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [first, last] of sorted) {
    const previous = merged.at(-1);
    if (previous && first <= previous[1] + 1) previous[1] = Math.max(previous[1], last);
    else merged.push([first, last]);
  }
  return merged;
}

/** Newest first: by start, then id (both descending), the order replays are listed in. */
export const newestFirst = (a: ReplayState, b: ReplayState) =>
  b.startedAt - a.startedAt || (a.sessionId < b.sessionId ? 1 : a.sessionId > b.sessionId ? -1 : 0);

/** The order visitors are listed in: first seen, then id. */
export const byFirstSeen = (a: VisitorState, b: VisitorState) =>
  a.firstSeen.getTime() - b.firstSeen.getTime() ||
  (a.visitorId < b.visitorId ? -1 : a.visitorId > b.visitorId ? 1 : 0);
