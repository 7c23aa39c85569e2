/**
 * A deterministic dataset of realistic traffic for the correctness-at-size test
 * (test/integration/analytics-at-size.test.ts): several websites over ~40 UTC days ending at
 * `now`, as the tracking script would send it (payloads that pass `collectPayloadSchema`, with the
 * client IP and user agent the collector would see). The same seed and `now` give the same events.
 */
import type { CollectPayload } from '../../rest-facade/src/collect/collect.schema';
import { seededRandom } from '../../scripts/lib/demo-traffic';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const floorDay = (ms: number) => Math.floor(ms / DAY) * DAY;
const floorHour = (ms: number) => Math.floor(ms / HOUR) * HOUR;

export interface DatasetSite {
  trackingCode: string;
  /** The website's own host: a referrer on it is an internal link ("direct"). */
  host: string;
}

/** One request to POST /api/collect: what the collector receives and when. */
export interface DatasetEvent {
  /** Index of the website in the `sites` the dataset was made for. */
  site: number;
  /** Receive time, ms since epoch (the collector stamps events with it). */
  ts: number;
  ip: string;
  userAgent: string;
  payload: CollectPayload;
}

type Random = () => number;
type Weighted<T> = ReadonlyArray<readonly [T, number]>;

const pick = <T>(random: Random, items: Weighted<T>): T => {
  const total = items.reduce((n, [, w]) => n + w, 0);
  let r = random() * total;
  for (const [item, weight] of items) {
    r -= weight;
    if (r <= 0) return item;
  }
  return items[items.length - 1]![0];
};
const between = (random: Random, min: number, max: number) =>
  min + Math.floor(random() * (max - min + 1));

/**
 * Address blocks whose GeoIP country geoip-lite resolves (several countries; some blocks span
 * more than one), and TEST-NET-1 (192.0.2.0/24), which resolves to nothing: country `null`.
 */
const NETWORKS: Weighted<string> = [
  ['8.8', 24],
  ['24.48', 10],
  ['5.9', 8],
  ['49.12', 5],
  ['81.2', 6],
  ['2.16', 6],
  ['91.198', 4],
  ['133.11', 5],
  ['177.0', 5],
  ['190.210', 3],
  ['41.203', 3],
  ['62.4', 3],
  ['192.0.2', 2],
];

interface Agent {
  ua: string;
  screens: ReadonlyArray<{ width: number; height: number } | undefined>;
}
/** Desktop, mobile, tablet, a TV (device "other") and an agent ua-parser cannot name. */
const AGENTS: Weighted<Agent> = [
  [
    {
      ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      // A desktop agent on a narrow screen is counted as mobile.
      screens: [
        { width: 1920, height: 1080 },
        { width: 1440, height: 900 },
        undefined,
        { width: 540, height: 960 },
      ],
    },
    30,
  ],
  [
    {
      ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
      screens: [
        { width: 1512, height: 982 },
        { width: 2560, height: 1440 },
      ],
    },
    12,
  ],
  [
    {
      ua: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
      screens: [{ width: 1920, height: 1080 }, undefined],
    },
    6,
  ],
  [
    {
      ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      screens: [{ width: 1366, height: 768 }],
    },
    4,
  ],
  [
    {
      ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      screens: [
        { width: 390, height: 844 },
        { width: 430, height: 932 },
      ],
    },
    20,
  ],
  [
    {
      ua: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      screens: [{ width: 412, height: 915 }],
    },
    13,
  ],
  [
    {
      ua: 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      screens: [{ width: 820, height: 1180 }],
    },
    4,
  ],
  [
    {
      ua: 'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      screens: [{ width: 1600, height: 2560 }],
    },
    2,
  ],
  [
    {
      ua: 'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0.3809.146 TV Safari/537.36',
      screens: [{ width: 1920, height: 1080 }],
    },
    1,
  ],
  [{ ua: 'FeedReaderApp/3.2', screens: [undefined] }, 1],
];

/** Where a visit comes from: a referrer, or a campaign tag on the landing URL. */
type Origin = { referrer: string | null } | { utm: string };
const ORIGINS = (host: string): Weighted<Origin> => [
  [{ referrer: null }, 35],
  [{ referrer: 'https://www.google.com/' }, 25],
  [{ referrer: 'https://www.bing.com/search?q=analytics' }, 4],
  [{ referrer: 'https://duckduckgo.com/' }, 4],
  [{ referrer: 'https://news.ycombinator.com/item?id=42' }, 5],
  [{ referrer: 'https://t.co/abc123' }, 4],
  [{ referrer: 'https://www.reddit.com/r/webdev/' }, 4],
  [{ referrer: 'https://github.com/some/repo' }, 3],
  [{ referrer: `https://${host}/from-an-old-tab` }, 3],
  [{ referrer: 'not a url' }, 1],
  [{ utm: 'newsletter' }, 5],
  [{ utm: 'Twitter' }, 2],
  [{ utm: 'producthunt' }, 2],
];

/** A few hundred paths: a head of popular pages and a long tail of posts and docs. */
function pathCatalogue(site: number): Weighted<string> {
  const head = ['/', '/pricing', '/features', '/blog', '/docs', '/signup', '/about', '/contact'];
  const tail: string[] = [];
  for (let i = 1; i <= 150 + site * 40; i += 1) tail.push(`/blog/post-${i}`);
  for (const section of ['api', 'guides', 'sdk', 'faq', 'reference', 'self-hosting'])
    for (let i = 1; i <= 20; i += 1) tail.push(`/docs/${section}/topic-${i}`);
  tail.push('/blog/caf%C3%A9-culture', '/Docs/Legacy', '/docs/with space');
  // Zipf-like: the head takes most views, every tail page is seen now and then.
  return [
    ...head.map((path, rank) => [path, 60 / (rank + 1)] as const),
    ...tail.map((path, rank) => [path, 2 / Math.sqrt(rank + 1)] as const),
  ];
}

/** A URL of `path` as the browser reports it: sometimes with a query string or a fragment. */
function pageUrl(random: Random, host: string, path: string, utm?: string): string {
  const query = utm
    ? `?utm_source=${utm}&utm_medium=email`
    : random() < 0.05
      ? `?ref=${between(random, 1, 9)}`
      : '';
  const fragment = random() < 0.04 ? '#section-2' : '';
  return `https://${host}${path}${query}${fragment}`;
}

const EVENT_NAMES: Record<string, Weighted<string>> = {
  '/signup': [['Signup', 1]],
  '/pricing': [
    ['Plan Selected', 3],
    ['Contact Sales', 1],
  ],
  '/': [['Play Video', 1]],
};

/**
 * Messages and stacks: two share the message and the first frame but not the later frames (one
 * group), a third shares only the message (another group), one has no stack.
 */
const ERRORS: Weighted<{ message: string; stack?: string }> = [
  [
    {
      message: "TypeError: Cannot read properties of undefined (reading 'id')",
      stack:
        "TypeError: Cannot read properties of undefined (reading 'id')\n    at render (https://cdn.example/app.js:1:1200)\n    at main (https://cdn.example/app.js:1:90)",
    },
    6,
  ],
  [
    {
      message: "TypeError: Cannot read properties of undefined (reading 'id')",
      stack:
        "TypeError: Cannot read properties of undefined (reading 'id')\n    at render (https://cdn.example/app.js:1:1200)\n    at onClick (https://cdn.example/app.js:1:4410)",
    },
    3,
  ],
  [
    {
      message: "TypeError: Cannot read properties of undefined (reading 'id')",
      stack:
        "TypeError: Cannot read properties of undefined (reading 'id')\n    at checkout (https://cdn.example/shop.js:1:77)",
    },
    3,
  ],
  [
    {
      message: 'ReferenceError: gtag is not defined',
      stack: 'ReferenceError: gtag is not defined\n    at https://cdn.example/analytics.js:2:15',
    },
    4,
  ],
  [{ message: 'Script error.' }, 3],
  [
    {
      message: 'NetworkError when attempting to fetch resource.',
      stack: 'fetchData@https://cdn.example/app.js:3:400\nrun@https://cdn.example/app.js:3:10',
    },
    2,
  ],
];

/** How much and what kind of traffic a website gets. */
interface Profile {
  visitorsPerDay: number;
  /** Share of days without any traffic. */
  quietDays: number;
  /** Days before today that get no traffic (0: traffic up to now). */
  silentRecentDays: number;
  /** Share of visits recorded for replay. */
  replays: number;
}
const PROFILES: Profile[] = [
  { visitorsPerDay: 26, quietDays: 0, silentRecentDays: 0, replays: 0.1 },
  { visitorsPerDay: 16, quietDays: 0.05, silentRecentDays: 0, replays: 0.06 },
  // A small site that went quiet three days ago: empty 24h lists, zero-filled days.
  { visitorsPerDay: 6, quietDays: 0.3, silentRecentDays: 3, replays: 0.1 },
];

/** Hour-of-day weights (UTC): quiet nights, busy afternoons. */
const HOURS: Weighted<number> = Array.from(
  { length: 24 },
  (_, h) => [h, h < 6 ? 1 : h < 9 ? 3 : h < 18 ? 6 : 4] as const,
);

interface Person {
  ip: string;
  userAgent: string;
  screen: { width: number; height: number } | undefined;
}

const address = (random: Random) => {
  const network = pick(random, NETWORKS);
  const octets = network.split('.').length;
  const rest = Array.from({ length: 4 - octets }, () => between(random, 1, 250));
  return [network, ...rest].join('.');
};

function replayChunk(random: Random, url: string): unknown[] {
  const events: unknown[] = [{ type: 4, data: { href: url, width: 1280, height: 720 } }];
  for (let i = between(random, 0, 6); i > 0; i -= 1)
    events.push({
      type: 3,
      data: {
        source: 1,
        positions: [
          {
            x: between(random, 0, 1280),
            y: between(random, 0, 4000),
            id: i,
            timeOffset: -between(random, 0, 500),
          },
        ],
      },
    });
  if (random() < 0.2)
    events.push({ type: 5, data: { tag: 'note', payload: { text: 'Grüße, €5 — 日本' } } });
  return events;
}

/** Builds the events of one website, oldest day first (not yet sorted by time). */
class SiteTraffic {
  readonly events: DatasetEvent[] = [];
  private readonly paths: Weighted<string>;
  private replayCount = 0;

  constructor(
    private readonly random: Random,
    private readonly site: number,
    private readonly host: string,
    private readonly trackingCode: string,
  ) {
    this.paths = pathCatalogue(site);
  }

  private url(path: string, utm?: string) {
    return pageUrl(this.random, this.host, path, utm);
  }

  private push(person: Person, ts: number, payload: Record<string, unknown>) {
    this.events.push({
      site: this.site,
      ts,
      ip: person.ip,
      userAgent: person.userAgent,
      payload: {
        trackingCode: this.trackingCode,
        ...payload,
        ...(person.screen ? { screen: person.screen } : {}),
      } as CollectPayload,
    });
  }

  pageview(
    person: Person,
    ts: number,
    path: string,
    referrer: string | null | undefined,
    utm?: string,
  ) {
    const url = this.url(path, utm);
    this.push(person, ts, {
      type: 'pageview',
      url,
      ...(referrer === undefined ? {} : { referrer }),
    });
    return url;
  }

  click(person: Person, ts: number, path: string) {
    const viewport = person.screen ?? { width: 1280, height: 720 };
    const random = this.random;
    // Mostly above the fold, sometimes at the right edge or far below 20,000 px.
    const x = random() < 0.05 ? viewport.width : Math.floor(random() * viewport.width);
    const y = random() < 0.03 ? between(random, 20_000, 60_000) : between(random, 0, 2_400);
    this.push(person, ts, {
      type: 'click',
      url: this.url(path),
      x,
      y,
      viewport,
      ...(random() < 0.5 ? { selector: `#cta-${between(random, 1, 4)}` } : {}),
    });
  }

  customEvent(person: Person, ts: number, path: string, name: string) {
    const props =
      this.random() < 0.5
        ? { plan: this.random() < 0.3 ? 'pro' : 'free', seats: between(this.random, 1, 20) }
        : undefined;
    this.push(person, ts, {
      type: 'event',
      url: this.url(path),
      name,
      ...(props ? { props } : {}),
    });
  }

  error(person: Person, ts: number, path: string) {
    const failure = pick(this.random, ERRORS);
    this.push(person, ts, { type: 'error', url: this.url(path), ...failure });
  }

  replay(
    person: Person,
    ts: number,
    path: string,
    sessionId: string,
    sequence: number,
    events: unknown[],
  ) {
    this.push(person, ts, { type: 'replay', url: this.url(path), sessionId, sequence, events });
  }

  /** One person's visits on one day: one to six pages each, sometimes a second visit later. */
  visits(person: Person, start: number) {
    const random = this.random;
    const dayOfStart = floorDay(start);
    let ts = start;
    const visits = random() < 0.15 ? 2 : 1;
    for (let visit = 0; visit < visits; visit += 1) {
      const origin = pick(random, ORIGINS(this.host));
      const pages = Math.min(6, 1 + Math.floor(-Math.log(1 - random()) * 1.3));
      const recorded = random() < PROFILES[this.site % PROFILES.length]!.replays;
      const chunks: Array<{ ts: number; path: string }> = [];
      let previous: string | null = null;
      for (let p = 0; p < pages; p += 1) {
        const path = pick(random, this.paths);
        const referrer =
          p > 0
            ? previous
            : 'utm' in origin
              ? undefined
              : origin.referrer === null && random() < 0.5
                ? undefined
                : origin.referrer;
        previous = this.pageview(
          person,
          ts,
          path,
          referrer,
          p === 0 && 'utm' in origin ? origin.utm : undefined,
        );
        for (let c = random() < 0.35 ? between(random, 1, 3) : 0; c > 0; c -= 1)
          this.click(person, ts + between(random, 1_000, 40_000), path);
        const names = EVENT_NAMES[path];
        if (names && random() < 0.4)
          this.customEvent(person, ts + between(random, 2_000, 30_000), path, pick(random, names));
        else if (path.startsWith('/blog/post-') && random() < 0.03)
          this.customEvent(
            person,
            ts + between(random, 2_000, 30_000),
            path,
            'Newsletter Subscribe',
          );
        else if (path.startsWith('/docs/') && random() < 0.04)
          this.customEvent(person, ts + between(random, 2_000, 30_000), path, 'Download');
        if (random() < 0.03) this.error(person, ts + between(random, 300, 3_000), path);
        if (recorded) chunks.push({ ts: ts + between(random, 200, 900), path });
        // Mostly a few seconds to minutes between pages, sometimes a long read within the visit.
        ts +=
          random() < 0.06
            ? between(random, 10 * MINUTE, 29 * MINUTE)
            : between(random, 5_000, 240_000);
      }
      if (chunks.length > 0) this.recording(person, chunks, dayOfStart);
      // A second visit the same day, after more than 30 minutes without a page view.
      ts += between(random, 31 * MINUTE, 5 * HOUR);
    }
  }

  /** Replay chunks of one visit: some arrive out of order, some are sent twice. */
  private recording(person: Person, slots: Array<{ ts: number; path: string }>, day: number) {
    const random = this.random;
    // A recording stays within the UTC day it started in (one visitor id).
    const kept = slots.filter((s) => floorDay(s.ts) === day);
    if (kept.length === 0) return;
    this.replayCount += 1;
    const sessionId = `rec-${this.site}-${day / DAY}-${this.replayCount}-${Math.floor(random() * 0xffffff).toString(16)}`;
    const sequences = kept.map((_, i) => i);
    if (kept.length > 1 && random() < 0.3) {
      const i = between(random, 0, kept.length - 2);
      [sequences[i], sequences[i + 1]] = [sequences[i + 1]!, sequences[i]!];
    }
    kept.forEach((slot, i) => {
      const events = replayChunk(random, this.url(slot.path));
      this.replay(person, slot.ts, slot.path, sessionId, sequences[i]!, events);
      // The recorder retries a chunk it did not see acknowledged: the same sequence and data.
      if (random() < 0.1 && floorDay(slot.ts + 4_000) === day)
        this.replay(
          person,
          slot.ts + between(random, 1_000, 4_000),
          slot.path,
          sessionId,
          sequences[i]!,
          events,
        );
    });
  }
}

/**
 * Realistic traffic for each of `sites` over `days` UTC days ending at `now` (events after `now`
 * are left out), plus a few hand-made visits around the boundaries the figures depend on: a
 * visitor active on both sides of an hour boundary, page views exactly 30 minutes and 30 minutes
 * plus 1 ms apart, a visit across midnight, visitors with clicks, custom events, errors or replay
 * chunks but no page view, and a replay whose first chunk arrives out of order and is sent twice
 * with different data. Sorted by time (ties keep their order of generation).
 */
export function analyticsDataset(options: {
  sites: DatasetSite[];
  now: number;
  days?: number;
  /** Multiplies every website's visitors per day (1: about 7,000 events over 40 days). */
  scale?: number;
  seed?: number;
}): DatasetEvent[] {
  const { now } = options;
  const days = options.days ?? 40;
  const firstDay = floorDay(now) - (days - 1) * DAY;
  const traffic = options.sites.map((site, index) => {
    const random = seededRandom((options.seed ?? 2026) + index * 7919);
    const builder = new SiteTraffic(random, index, site.host, site.trackingCode);
    const profile = PROFILES[index % PROFILES.length]!;
    for (let day = days - 1; day >= 0; day -= 1) {
      const dayStart = floorDay(now) - day * DAY;
      const weekday = new Date(dayStart).getUTCDay();
      const quiet = random() < profile.quietDays || day < profile.silentRecentDays;
      const people = quiet
        ? 0
        : Math.round(
            profile.visitorsPerDay *
              (options.scale ?? 1) *
              (weekday === 0 || weekday === 6 ? 0.6 : 1) *
              (0.8 + random() * 0.4),
          );
      for (let i = 0; i < people; i += 1) {
        const agent = pick(random, AGENTS);
        const ip = address(random);
        // The screen follows from the address, so two people who happen to share an address
        // and a browser on one day (one visitor id) are also one device.
        const octets = ip.split('.').reduce((n, octet) => n + Number(octet), 0);
        const person: Person = {
          ip,
          userAgent: agent.ua,
          screen: agent.screens[octets % agent.screens.length],
        };
        const start = dayStart + pick(random, HOURS) * HOUR + Math.floor(random() * HOUR);
        builder.visits(person, start);
      }
    }
    return builder;
  });
  const first = traffic[0];
  if (first) edgeCases(first, now);
  return traffic
    .flatMap((t) => t.events)
    .filter((e) => e.ts >= firstDay && e.ts <= now)
    .sort((a, b) => a.ts - b.ts);
}

/** The hand-made visits (see analyticsDataset), on the first website, relative to `now`. */
function edgeCases(site: SiteTraffic, now: number) {
  const agent = (i: number) => AGENTS[i]![0];
  const person = (ip: string, agentIndex: number): Person => ({
    ip,
    userAgent: agent(agentIndex).ua,
    screen: agent(agentIndex).screens[0],
  });
  const hour = floorHour(now);
  // Page views on both sides of an hour boundary (not midnight: that would be two visitors).
  let boundary = hour - 2 * HOUR;
  if (boundary === floorDay(boundary)) boundary -= HOUR;
  const straddler = person('8.8.0.4', 0);
  let from = site.pageview(straddler, boundary - 8 * MINUTE + 123, '/', 'https://www.google.com/');
  from = site.pageview(straddler, boundary - 3 * MINUTE + 456, '/pricing', from);
  site.pageview(straddler, boundary + 4 * MINUTE + 789, '/signup', from);
  site.click(straddler, boundary + 4 * MINUTE + 10_789, '/signup');
  site.customEvent(straddler, boundary + 5 * MINUTE, '/signup', 'Signup');

  // Exactly 30 minutes later is the same visit; 30 minutes and 1 ms later a new one.
  let t0 = hour - 6 * HOUR + 7 * MINUTE + 321;
  if (floorDay(t0) !== floorDay(t0 + 61 * MINUTE)) t0 -= 2 * HOUR;
  const timer = person('5.9.0.7', 2);
  from = site.pageview(timer, t0, '/docs', null);
  site.pageview(timer, t0 + 30 * MINUTE, '/docs/api/topic-1', from);
  site.pageview(timer, t0 + 60 * MINUTE + 1, '/docs/api/topic-2', 'https://duckduckgo.com/');

  // Visitors with no page view at all.
  site.click(person('81.2.69.142', 4), now - 3 * HOUR, '/features');
  site.error(person('133.11.0.3', 5), now - 5 * HOUR, '/app');
  site.customEvent(person('62.4.0.8', 1), now - 4 * HOUR, '/', 'Play Video');
  const silentRecorder = person('177.0.0.9', 6);
  site.replay(silentRecorder, now - 7 * HOUR, '/features', 'silent-recorder-0001', 0, [
    { type: 4 },
  ]);
  site.replay(silentRecorder, now - 7 * HOUR + 5_000, '/features', 'silent-recorder-0001', 1, [
    { type: 3 },
  ]);

  // A visit across midnight: two visitor ids, two sessions.
  let midnight = floorDay(now);
  if (midnight + 5 * MINUTE > now) midnight -= DAY;
  const nightOwl = person('91.198.0.3', 4);
  from = site.pageview(nightOwl, midnight - 10 * MINUTE, '/blog', 'https://t.co/x');
  from = site.pageview(nightOwl, midnight - 2 * MINUTE, '/blog/post-1', from);
  site.pageview(nightOwl, midnight + 3 * MINUTE, '/blog/post-2', from);

  // A replay whose first chunk to arrive is sequence 1, which is then sent again with other data.
  let r0 = now - 90 * MINUTE;
  if (floorDay(r0) !== floorDay(r0 + 20_000)) r0 -= HOUR;
  const recorder = person('24.48.0.5', 6);
  from = site.pageview(recorder, r0 - 1_000, '/docs', 'https://github.com/x');
  site.replay(recorder, r0, '/docs', 'out-of-order-0001', 1, [
    { type: 3, data: { n: 'first copy' } },
  ]);
  site.replay(recorder, r0 + 2_000, '/docs', 'out-of-order-0001', 0, [{ type: 4 }]);
  site.replay(recorder, r0 + 5_000, '/docs', 'out-of-order-0001', 1, [
    { type: 3, data: { n: 'a different, longer second copy' } },
  ]);
  site.pageview(recorder, r0 + 8_000, '/pricing', from);
  site.replay(recorder, r0 + 9_000, '/pricing', 'out-of-order-0001', 2, [
    { type: 2, data: 'Grüße €' },
  ]);

  // Page views in the current hour.
  const current = person('49.12.0.2', 3);
  const mid = hour + Math.floor((now - hour) / 2);
  from = site.pageview(current, mid, '/', null);
  site.pageview(current, now, '/features', from);
}
