/**
 * The contract between the collector (REST facade, public router) and the analytics consumer:
 * one entry of the Redis stream, already validated and enriched, holding no raw IP or user agent.
 */
export const analyticsEventStream = (prefix: string) => `${prefix}{analytics:events}`;
export const ANALYTICS_CONSUMER_GROUP = 'analytics';
/** Bounds the stream during a long consumer outage; entries are normally consumed in milliseconds. */
export const ANALYTICS_STREAM_MAX_LENGTH = 5_000_000;

export interface VisitorContext {
  /** Hash of the daily salt, website, IP and user agent: stable for one person for one UTC day. */
  visitorId: string;
  country: string | null;
  device: 'desktop' | 'mobile' | 'tablet' | 'other';
  browser: string | null;
  os: string | null;
  screenWidth: number | null;
  screenHeight: number | null;
}

/**
 * The UTM parameters of the page URL as given (decoded, trimmed, at most 100 characters, case
 * kept); null where one is absent or empty.
 */
export interface UtmParameters {
  source: string | null;
  medium: string | null;
  campaign: string | null;
  content: string | null;
  term: string | null;
}

/** A named event's revenue: an order, or a refund when negative. */
export interface Revenue {
  /**
   * The amount exactly as sent, as a canonical decimal string (`"19.99"`, `"-5"`, `"0.3"`: no
   * exponent, no leading zeros, no trailing zeros after the point), at most 2^53 in magnitude.
   */
  amount: string;
  /** ISO 4217 code, upper case. */
  currency: string;
}

interface EventBase extends VisitorContext {
  /**
   * Assigned when the event is accepted; the same however often the event is appended (the
   * collector appends again what Redis lost before it was applied), and stored once. Absent in
   * entries appended before events had ids: their stream id stands in.
   */
  eventId?: string;
  websiteId: string;
  /** Server receive time, ms since epoch. */
  ts: number;
  /** Path of the page the event happened on, without query string or fragment. */
  path: string;
  /**
   * Host of the page URL, lower case, without port, `www.` kept. Absent (as `utm` is) in entries
   * appended before it was collected.
   */
  hostname?: string;
  /** The page URL's UTM parameters; null when it has none. */
  utm?: UtmParameters | null;
}

export type CollectedEvent =
  | (EventBase & { type: 'pageview'; referrer: string | null; source: string })
  | (EventBase & {
      type: 'event';
      name: string;
      props: Record<string, string | number | boolean> | null;
      /** Absent in entries appended before revenue was collected. */
      revenue?: Revenue | null;
    })
  | (EventBase & {
      type: 'click';
      x: number;
      y: number;
      viewportWidth: number;
      viewportHeight: number;
      selector: string | null;
    })
  | (EventBase & { type: 'error'; message: string; stack: string | null; fingerprint: string })
  | (EventBase & { type: 'replay'; sessionId: string; sequence: number; data: string });
