/**
 * Generated event rows with a fixed seed: visitors with visits of page views, custom events with
 * properties and revenue, UTM parameters and sources, over whole UTC days ending before `end`.
 */
import type { EventRow } from '../../subgraphs/analytics/src/engine/event-rows';
import { fnv64, visitorHash } from '../../subgraphs/analytics/src/engine/event-rows';

const DAY_MS = 86_400_000;

/** Mulberry32: small, fast, good enough for fixtures. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface DatasetOptions {
  seed: number;
  days: number;
  visitorsPerDay: number;
  /** The first instant after the data (the end of its last day). */
  end: number;
  pages?: number;
}

const COUNTRIES = ['US', 'DE', 'GB', 'FR', null];
const DEVICES = ['desktop', 'mobile', 'tablet'];
const BROWSERS = ['Chrome', 'Firefox', 'Safari', 'Edge'];
const OSES = ['Windows', 'macOS', 'iOS', 'Android'];
const SOURCES = ['google', 'direct', 'news.example', 'twitter.com', 'Newsletter'];
const MEDIUMS = ['cpc', 'email', 'social', null];
const CAMPAIGNS = ['spring', 'Launch', null, null];
const EVENTS = ['Signup', 'Purchase', 'Download'];
const PLANS = ['free', 'pro', 'team'];

export function generateEventRows(options: DatasetOptions): EventRow[] {
  const random = seeded(options.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const pages = options.pages ?? 40;
  const page = () => {
    const n = Math.floor(random() ** 2 * pages);
    return n === 0
      ? '/'
      : n % 7 === 0
        ? `/blog/post-${n}`
        : n % 5 === 0
          ? '/pricing'
          : `/docs/p${n}`;
  };
  const rows: EventRow[] = [];
  let n = 0;
  const firstDay = options.end - options.days * DAY_MS;
  for (let d = 0; d < options.days; d += 1) {
    const dayStart = firstDay + d * DAY_MS;
    for (let v = 0; v < options.visitorsPerDay; v += 1) {
      const visitorId = `visitor-${options.seed}-${d}-${v}`;
      const visitor = visitorHash(visitorId);
      const country = pick(COUNTRIES);
      const device = pick(DEVICES);
      const browser = pick(BROWSERS);
      const os = pick(OSES);
      const visits = 1 + Math.floor(random() * 2);
      let at = dayStart + Math.floor(random() * (DAY_MS - 4 * 3_600_000));
      for (let s = 0; s < visits; s += 1) {
        const startedAt = at;
        const visit = fnv64(`${visitorId}|${startedAt}`);
        const entry = page();
        const source = pick(SOURCES);
        const utm = {
          source: random() < 0.3 ? source.toLowerCase() : null,
          medium: pick(MEDIUMS),
          campaign: pick(CAMPAIGNS),
          content: random() < 0.1 ? 'banner' : null,
          term: random() < 0.05 ? 'analytics' : null,
        };
        const views = 1 + Math.floor(random() ** 2 * 5);
        for (let p = 0; p < views; p += 1) {
          const path = p === 0 ? entry : page();
          const base: EventRow = {
            id: `e${(n += 1)}`,
            ts: at,
            visitor,
            visit,
            type: 'pageview',
            name: null,
            page: path,
            entryPage: entry,
            hostname: random() < 0.9 ? 'shop.example' : 'blog.shop.example',
            source,
            referrer: source === 'direct' ? null : `https://${source}/`,
            utmSource: utm.source,
            utmMedium: utm.medium,
            utmCampaign: utm.campaign,
            utmContent: utm.content,
            utmTerm: utm.term,
            country,
            device,
            browser,
            os,
            props: [],
            revenueAmount: null,
            revenueCurrency: null,
          };
          rows.push(base);
          if (random() < 0.15) {
            const name = pick(EVENTS);
            const paid = name === 'Purchase';
            rows.push({
              ...base,
              id: `e${(n += 1)}`,
              ts: at + 1_000,
              type: 'event',
              name,
              referrer: null,
              props: random() < 0.8 ? [['plan', pick(PLANS)]] : [],
              revenueAmount: paid ? (Math.floor(random() * 10_000) / 100).toFixed(2) : null,
              revenueCurrency: paid ? (random() < 0.8 ? 'EUR' : 'USD') : null,
            });
          }
          at += 10_000 + Math.floor(random() * 300_000);
        }
        // The next visit starts after the session timeout.
        at += 31 * 60_000 + Math.floor(random() * 3_600_000);
      }
    }
  }
  return rows;
}
