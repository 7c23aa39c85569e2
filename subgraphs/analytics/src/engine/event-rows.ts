import type { CollectedEvent } from '../../../../common/contracts/collected-event';
import type { EventVisit } from '../ingest/aggregate';
import { storableProps } from '../store/raw-log';

/**
 * One event as the engine stores and reads it: a row of a columnar block (engine/blocks.ts) and of
 * a website's table in DuckDB. What a visit decides (its entry page and source) and what a visitor
 * decides (country, device, browser, OS: its id hashes the IP and user agent they come from) are
 * copied onto each of its events when the event is applied, so a query needs no join to answer by
 * them; exit pages, bounces and durations are worked out per visit at query time.
 */
export interface EventRow {
  /** The event's id (its stream id for events collected before ids). */
  id: string;
  /** Milliseconds since the epoch (UTC). */
  ts: number;
  /** The visitor: the first 64 bits of its daily hash. */
  visitor: bigint;
  /** The visit: its visitor and its first page view's time, hashed; null outside a visit. */
  visit: bigint | null;
  type: CollectedEvent['type'];
  /** A custom event's name. */
  name: string | null;
  page: string;
  entryPage: string | null;
  hostname: string | null;
  source: string | null;
  referrer: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmContent: string | null;
  utmTerm: string | null;
  country: string | null;
  device: string | null;
  browser: string | null;
  os: string | null;
  /** Custom properties, every value as text. */
  props: Array<[string, string]>;
  /** A named event's revenue: the amount as a decimal string, and its ISO 4217 currency. */
  revenueAmount: string | null;
  revenueCurrency: string | null;
}

/**
 * The DuckDB columns of an event row but its id, in order: a website's table holds these (and
 * their keys, engine/dictionary.ts); no question reads an event's id, and it would be a sixth of
 * the table's memory.
 */
export const EVENT_FIELDS = `
  ts TIMESTAMP,
  visitor UBIGINT,
  visit UBIGINT,
  type VARCHAR,
  name VARCHAR,
  page VARCHAR,
  entry_page VARCHAR,
  hostname VARCHAR,
  source VARCHAR,
  referrer VARCHAR,
  utm_source VARCHAR,
  utm_medium VARCHAR,
  utm_campaign VARCHAR,
  utm_content VARCHAR,
  utm_term VARCHAR,
  country VARCHAR,
  device VARCHAR,
  browser VARCHAR,
  os VARCHAR,
  props MAP(VARCHAR, VARCHAR),
  revenue_amount DECIMAL(18, 4),
  revenue_currency VARCHAR`;

/** The DuckDB columns of an event row, in order, as blocks hold them: its id, then its fields. */
export const EVENT_COLUMNS = `
  id VARCHAR,${EVENT_FIELDS}`;

const HEX64 = /^[0-9a-f]{16}/i;

/** 64-bit FNV-1a of a text. */
export function fnv64(text: string): bigint {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i += 1) {
    h ^= BigInt(text.charCodeAt(i));
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h;
}

/** A visitor id's first 64 bits (it is a hex hash), or FNV-1a of any other id (tests, seeds). */
export function visitorHash(visitorId: string): bigint {
  const hex = HEX64.exec(visitorId)?.[0];
  return hex ? BigInt(`0x${hex}`) : fnv64(visitorId);
}

type Utm = {
  source?: string | null;
  medium?: string | null;
  campaign?: string | null;
  content?: string | null;
  term?: string | null;
};
type Extras = {
  hostname?: string | null;
  utm?: Utm | null;
  revenue?: { amount: string; currency: string } | null;
};

/**
 * Whether the engine keeps an event: page views and custom events. Clicks, errors and replay
 * chunks are instrumentation that their own routes (heatmaps, error groups, replays) answer.
 */
export const isStatsEvent = (event: CollectedEvent): boolean =>
  event.type === 'pageview' || event.type === 'event';

/** The row of an applied event: the event, and the visit and visitor it was applied in. */
export function toEventRow(id: string, event: CollectedEvent, visit: EventVisit): EventRow {
  const extras = event as CollectedEvent & Extras;
  const utm = extras.utm ?? null;
  const revenue = event.type === 'event' ? (extras.revenue ?? null) : null;
  return {
    id: event.eventId ?? id,
    ts: event.ts,
    visitor: visitorHash(event.visitorId),
    visit: visit.visit ? fnv64(`${event.visitorId}|${visit.visit.startedAt}`) : null,
    type: event.type,
    name: event.type === 'event' ? event.name : null,
    page: event.path,
    entryPage: visit.visit?.entryPage ?? null,
    hostname: extras.hostname ?? null,
    source: visit.visit?.source ?? (event.type === 'pageview' ? event.source : null),
    referrer: event.type === 'pageview' ? event.referrer : null,
    utmSource: utm?.source ?? null,
    utmMedium: utm?.medium ?? null,
    utmCampaign: utm?.campaign ?? null,
    utmContent: utm?.content ?? null,
    utmTerm: utm?.term ?? null,
    country: visit.country,
    device: visit.device,
    browser: visit.browser,
    os: visit.os,
    // Named as the raw store names them, so a day rebuilt from raw events has the same rows.
    props:
      event.type === 'event' && event.props
        ? Object.entries(storableProps(event.props)).map(([name, value]) => [name, String(value)])
        : [],
    revenueAmount: revenue ? revenue.amount : null,
    revenueCurrency: revenue ? revenue.currency : null,
  };
}
