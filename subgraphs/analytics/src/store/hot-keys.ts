import { DAY_MS, HOUR_MS } from '../ingest/time-buckets';
import type { Family } from './counters';

/** A UTC day as stored and addressed: `YYYY-MM-DD`. */
export type DayKey = string;
export const dayKeyOf = (ms: number): DayKey => new Date(ms).toISOString().slice(0, 10);
export const dayStartOf = (day: DayKey): number => Date.parse(`${day}T00:00:00.000Z`);
export const hourKeyOf = (ms: number): string => new Date(ms).toISOString().slice(0, 13);
const spans = new Map<string, readonly DayKey[]>();

/**
 * The days from `first` to `last` (start times in ms), inclusive, oldest first. Reads ask for the
 * same few spans all day, so each is made once (and the list is shared: not to be changed).
 */
export function daysBetween(first: number, last: number): readonly DayKey[] {
  const span = `${first}|${last}`;
  let days = spans.get(span);
  if (!days) {
    const list: DayKey[] = [];
    for (let t = first; t <= last; t += DAY_MS) list.push(dayKeyOf(t));
    if (spans.size > 100) spans.clear();
    spans.set(span, list);
    days = list;
  }
  return days;
}
/** A day marker: when the day last changed, and that change's unique stamp. */
export const dayMarker = (now: number, change: string) => `${now}|${change}`;
export const markerTime = (marker: string | null) => Number((marker ?? '0').split('|')[0]);

export const hoursOfDay = (day: DayKey): string[] =>
  Array.from({ length: 24 }, (_, h) => hourKeyOf(dayStartOf(day) + h * HOUR_MS));

/**
 * Names of the Redis keys of the analytics hot tier. Every key carries the `{analytics}` hash tag,
 * so a batch's MULTI stays in one slot on a Redis Cluster.
 *
 * Per website W and UTC day D (a "hot day"):
 *  - `day:W:D` the day's marker: `<ms>|<change>`, set anew by every change of the day (so it is
 *    also the version of everything the day holds) and read for the time of its last change; its
 *    absence while the day index says the day is hot means Redis lost the day (it is rebuilt);
 *  - `c:W:D:<family>` day counters, `hc:W:<hour>:<family>` hour counters (recent days only);
 *  - `cells:W:D` heatmap clicks (`<path>\0<cell>`), `err:W:D` the day's error groups;
 *  - `v:W:D` visitor states, `vo:W:D` / `vl:W:D` / `vp:W:D` visitors by first seen, last seen
 *    and last page view;
 *  - `r:W:D` replay sessions;
 *  - `blk:W:D` the day's page views and custom events as blocks for the engine (engine/blocks.ts):
 *    one per batch, the batch's change stamp → Parquet bytes, merged into one every 32
 *    (engine/hot-blocks.ts).
 * Per replay session: `rs:W:S` the day it is kept under.
 */
export class HotKeys {
  readonly base: string;

  constructor(prefix: string) {
    this.base = `${prefix}{analytics}:`;
  }

  /** Ordered id of the last stream entry applied. */
  get applied() {
    return `${this.base}applied`;
  }
  /** Set while Redis keeps the hot tier; its absence tells the lease holder to look for lost days. */
  get alive() {
    return `${this.base}alive`;
  }
  /** Every hot day, as `W|D`. */
  get hotDays() {
    return `${this.base}hot`;
  }
  epoch = (w: string) => `${this.base}epoch:${w}`;
  marker = (w: string, d: DayKey) => `${this.base}day:${w}:${d}`;
  counters = (w: string, d: DayKey, family: Family) => `${this.base}c:${w}:${d}:${family}`;
  hourCounters = (w: string, hour: string, family: Family) =>
    `${this.base}hc:${w}:${hour}:${family}`;
  cells = (w: string, d: DayKey) => `${this.base}cells:${w}:${d}`;
  errors = (w: string, d: DayKey) => `${this.base}err:${w}:${d}`;
  visitors = (w: string, d: DayKey) => `${this.base}v:${w}:${d}`;
  visitorsByFirstSeen = (w: string, d: DayKey) => `${this.base}vo:${w}:${d}`;
  visitorsByLastSeen = (w: string, d: DayKey) => `${this.base}vl:${w}:${d}`;
  visitorsByLastPageview = (w: string, d: DayKey) => `${this.base}vp:${w}:${d}`;
  replays = (w: string, d: DayKey) => `${this.base}r:${w}:${d}`;
  blocks = (w: string, d: DayKey) => `${this.base}blk:${w}:${d}`;
  replayDay = (w: string, session: string) => `${this.base}rs:${w}:${session}`;
  window = (w: string, days: number) => `${this.base}win:${w}:${days}`;
}
