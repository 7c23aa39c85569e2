import { createHash, randomBytes } from 'node:crypto';
import geoip from 'geoip-lite';
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';
import { UAParser } from 'ua-parser-js';
import type {
  CollectedEvent,
  UtmParameters,
  VisitorContext,
} from '../../../common/contracts/collected-event';
import type { CollectPayload } from './collect.schema';

const COUNTRY = /^[A-Z]{2}$/;
/** Parsing a user agent costs dozens of regular expressions; a site sees the same few hundred. */
const parsedAgents = new LRUCache<string, UAParser.IResult>({ max: 10_000 });

function parseAgent(userAgent: string): UAParser.IResult {
  let parsed = parsedAgents.get(userAgent);
  if (!parsed) {
    parsed = new UAParser(userAgent).getResult();
    parsedAgents.set(userAgent, parsed);
  }
  return parsed;
}
/** Codes proxies use for "unknown" or Tor rather than a country. */
const NOT_A_COUNTRY = new Set(['XX', 'T1', 'ZZ']);

export function normalizeIp(ip: string): string {
  try {
    return ipaddr.process(ip).toString();
  } catch {
    return ip;
  }
}

/** The proxy's country header when the proxy is trusted, else a GeoIP lookup of the IP. */
export function countryOf(ip: string, trustedHeader: string | undefined): string | null {
  const fromHeader = trustedHeader?.trim().toUpperCase();
  if (fromHeader && COUNTRY.test(fromHeader) && !NOT_A_COUNTRY.has(fromHeader)) return fromHeader;
  return geoip.lookup(ip)?.country || null;
}

export function deviceOf(
  parsed: UAParser.IResult,
  screenWidth: number | null,
): VisitorContext['device'] {
  const type = parsed.device.type;
  if (type === 'mobile' || type === 'tablet') return type;
  if (type) return 'other';
  // Desktop user agents on small screens are mostly phones in "desktop mode".
  if (screenWidth !== null && screenWidth < 600) return 'mobile';
  return 'desktop';
}

/** sha256(daily salt, website, IP, user agent): no raw IP or user agent is ever stored. */
export function visitorIdOf(
  salt: string,
  websiteId: string,
  ip: string,
  userAgent: string,
): string {
  return createHash('sha256')
    .update(`${salt}\n${websiteId}\n${ip}\n${userAgent}`)
    .digest('hex')
    .slice(0, 32);
}

const hostOf = (value: string) => {
  try {
    return new URL(value).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
};

/** Where a visit came from: utm_source, else the referrer's host; own pages and none are "direct". */
export function sourceOf(pageUrl: URL, referrer: string | null | undefined): string {
  const utm = pageUrl.searchParams.get('utm_source')?.trim().toLowerCase();
  if (utm) return utm.slice(0, 100);
  const host = referrer ? hostOf(referrer) : null;
  if (!host || host === pageUrl.hostname.toLowerCase().replace(/^www\./, '')) return 'direct';
  return host;
}

/** Longest UTM value kept; longer ones are cut there. */
export const MAX_UTM_LENGTH = 100;

/** `value` cut at `max` UTF-16 units, never between the two halves of one character. */
function clip(value: string, max: number): string {
  if (value.length <= max) return value;
  const cut = value.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

const utmValue = (pageUrl: URL, name: string) =>
  clip(pageUrl.searchParams.get(name)?.trim() ?? '', MAX_UTM_LENGTH).trimEnd() || null;

/** The page URL's five UTM parameters, case kept (the first of each); null when it has none. */
export function utmOf(pageUrl: URL): UtmParameters | null {
  const utm = {
    source: utmValue(pageUrl, 'utm_source'),
    medium: utmValue(pageUrl, 'utm_medium'),
    campaign: utmValue(pageUrl, 'utm_campaign'),
    content: utmValue(pageUrl, 'utm_content'),
    term: utmValue(pageUrl, 'utm_term'),
  };
  return Object.values(utm).some((value) => value !== null) ? utm : null;
}

export function errorFingerprint(message: string, stack: string | undefined): string {
  const firstFrame =
    stack
      ?.split('\n')
      .find((line) => /\bat\b|@/.test(line))
      ?.trim() ?? '';
  return createHash('sha256').update(`${message.trim()}\n${firstFrame}`).digest('hex').slice(0, 16);
}

/** 96 random bits: an accepted event's id, which the raw-event store keeps once. */
export const newEventId = () => randomBytes(12).toString('base64url');

export interface RequestFacts {
  websiteId: string;
  ip: string;
  userAgent: string;
  countryHeader: string | undefined;
  salt: string;
  now: number;
}

/** A validated payload without its tracking code (the facts name the website). */
export type EventPayload = CollectPayload extends infer P
  ? P extends CollectPayload
    ? Omit<P, 'trackingCode'>
    : never
  : never;

/** The stored form of a validated payload: derived fields in, raw IP and user agent out. */
export function enrich(payload: EventPayload, facts: RequestFacts): CollectedEvent {
  const parsed = parseAgent(facts.userAgent);
  const pageUrl = new URL(payload.url);
  const screenWidth = payload.screen?.width ?? null;
  const base = {
    eventId: newEventId(),
    websiteId: facts.websiteId,
    ts: facts.now,
    path: (pageUrl.pathname || '/').slice(0, 512),
    // Already lower case (and IDNs in punycode): the URL parser normalises it.
    hostname: pageUrl.hostname,
    utm: utmOf(pageUrl),
    visitorId: visitorIdOf(facts.salt, facts.websiteId, facts.ip, facts.userAgent),
    country: countryOf(facts.ip, facts.countryHeader),
    device: deviceOf(parsed, screenWidth),
    browser: parsed.browser.name ?? null,
    os: parsed.os.name ?? null,
    screenWidth,
    screenHeight: payload.screen?.height ?? null,
  };
  switch (payload.type) {
    case 'pageview':
      return {
        ...base,
        type: 'pageview',
        referrer: payload.referrer ?? null,
        source: sourceOf(pageUrl, payload.referrer),
      };
    case 'event':
      return {
        ...base,
        type: 'event',
        name: payload.name,
        props: payload.props ?? null,
        revenue: payload.revenue ?? null,
      };
    case 'click':
      return {
        ...base,
        type: 'click',
        x: payload.x,
        y: payload.y,
        viewportWidth: payload.viewport.width,
        viewportHeight: payload.viewport.height,
        selector: payload.selector ?? null,
      };
    case 'error':
      return {
        ...base,
        type: 'error',
        message: payload.message,
        stack: payload.stack ?? null,
        fingerprint: errorFingerprint(payload.message, payload.stack),
      };
    case 'replay':
      return {
        ...base,
        type: 'replay',
        sessionId: payload.sessionId,
        sequence: payload.sequence,
        data: JSON.stringify(payload.events),
      };
  }
}
