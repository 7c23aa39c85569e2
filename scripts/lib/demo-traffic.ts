import type { CollectRequest } from '../../rest-facade/src/collect/collect.schema';

/** A small seeded PRNG (mulberry32), so demo traffic is the same on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, items: ReadonlyArray<readonly [T, number]>): T => {
  const total = items.reduce((n, [, w]) => n + w, 0);
  let r = random() * total;
  for (const [item, weight] of items) {
    r -= weight;
    if (r <= 0) return item;
  }
  return items[items.length - 1]![0];
};

/** `pick` for long lists: cumulative weights and a binary search, built once. */
function picker<T>(items: ReadonlyArray<readonly [T, number]>): (random: () => number) => T {
  let total = 0;
  const ends = items.map(([, weight]) => (total += weight));
  return (random) => {
    const r = random() * total;
    let low = 0;
    let high = ends.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (ends[mid]! < r) low = mid + 1;
      else high = mid;
    }
    return items[low]![0];
  };
}

const PAGES = [
  ['/', 40],
  ['/pricing', 15],
  ['/features', 12],
  ['/blog', 10],
  ['/blog/launch', 6],
  ['/docs', 9],
  ['/docs/getting-started', 5],
  ['/signup', 3],
] as const;
const REFERRERS = [
  [null, 45],
  ['https://www.google.com/', 30],
  ['https://news.ycombinator.com/', 6],
  ['https://twitter.com/', 6],
  ['https://www.reddit.com/r/webdev/', 5],
  ['https://duckduckgo.com/', 4],
  ['https://github.com/', 4],
] as const;
const AGENTS = [
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    38,
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
    14,
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    20,
  ],
  [
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    14,
  ],
  ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 7],
  [
    'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    4,
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
    3,
  ],
] as const;

type Campaign = Partial<
  Record<'utm_source' | 'utm_medium' | 'utm_campaign' | 'utm_content' | 'utm_term', string>
>;
/** Campaign tags of landing pages, by the referrer a tagged visit comes with (null: none). */
const CAMPAIGNS = new Map<string | null, ReadonlyArray<readonly [Campaign | null, number]>>([
  [
    null,
    [
      [null, 85],
      [
        {
          utm_source: 'newsletter',
          utm_medium: 'email',
          utm_campaign: 'spring_sale',
          utm_content: 'header_cta',
        },
        9,
      ],
      [
        {
          utm_source: 'newsletter',
          utm_medium: 'email',
          utm_campaign: 'weekly_digest',
          utm_content: 'footer_link',
        },
        6,
      ],
    ],
  ],
  [
    'https://www.google.com/',
    [
      [null, 75],
      [
        {
          utm_source: 'google',
          utm_medium: 'cpc',
          utm_campaign: 'brand_search',
          utm_term: 'web analytics',
          utm_content: 'ad_a',
        },
        15,
      ],
      [
        {
          utm_source: 'google',
          utm_medium: 'cpc',
          utm_campaign: 'brand_search',
          utm_term: 'privacy friendly analytics',
          utm_content: 'ad_b',
        },
        10,
      ],
    ],
  ],
  [
    'https://twitter.com/',
    [
      [null, 50],
      [{ utm_source: 'twitter', utm_medium: 'social', utm_campaign: 'Launch Week' }, 50],
    ],
  ],
  [
    'https://news.ycombinator.com/',
    [
      [null, 80],
      [{ utm_source: 'HackerNews', utm_medium: 'referral', utm_campaign: 'Show HN' }, 20],
    ],
  ],
]);

type Purchase = { plan: string; revenue: { amount: number | string; currency: string } };
/** Plans bought on the pricing page, with what they cost (amounts as numbers and as strings). */
const PURCHASES: ReadonlyArray<readonly [Purchase, number]> = [
  [{ plan: 'pro', revenue: { amount: '29.00', currency: 'USD' } }, 10],
  [{ plan: 'pro', revenue: { amount: 27, currency: 'EUR' } }, 6],
  [{ plan: 'pro', revenue: { amount: '24.00', currency: 'GBP' } }, 3],
  [{ plan: 'business', revenue: { amount: 99.5, currency: 'USD' } }, 3],
  [{ plan: 'business annual', revenue: { amount: '995.00', currency: 'USD' } }, 1],
];

/** First octets of address blocks in several countries (GeoIP resolves them). */
const NETWORKS = [
  ['8.8', 30],
  ['81.2', 12],
  ['2.16', 6],
  ['5.9', 10],
  ['91.198', 6],
  ['1.1', 5],
  ['133.11', 5],
  ['177.0', 6],
  ['49.12', 5],
  ['24.48', 15],
] as const;

export interface DemoEvent {
  payload: CollectRequest;
  ip: string;
  userAgent: string;
  ts: number;
}

/**
 * A catalogue of `count` paths besides the site's main pages, weighted like real sites' long tail
 * (Zipf: the n-th page is viewed about 1/n as often as the first).
 */
function longTail(count: number): ReadonlyArray<readonly [string, number]> {
  const sections = ['blog', 'docs', 'products', 'help', 'changelog'];
  return [
    ...PAGES,
    ...Array.from(
      { length: count },
      (_, n) => [`/${sections[n % sections.length]}/page-${n + 1}`, 100 / (n + 1)] as const,
    ),
  ];
}

/**
 * Realistic demo traffic for one website over `days` days ending at `now`: visits of one to six
 * pages (longer with `pagesPerVisit`) with pauses between them, weekday rhythm, referrers, devices,
 * countries, the odd custom event, clicks and JavaScript errors, and with `replayShare` session
 * recordings. Some visits land on campaign-tagged URLs (all five UTM parameters in use), some on
 * the `www.` host, and some buy on the pricing page (a Purchase event with revenue in USD, EUR
 * or GBP, now and then refunded). `pages` adds a long tail of that many paths. Events come out
 * ordered by time.
 */
export function* demoTraffic(options: DemoTrafficOptions): Generator<DemoEvent> {
  const random = seededRandom(options.seed ?? 42);
  const traffic: Traffic = {
    options,
    random,
    // Campaigns, hosts and purchases draw from a sequence of their own, so that a seed gives the
    // visits, pages and referrers it gave before they were added (benchmark figures stay
    // comparable).
    tagging: seededRandom((options.seed ?? 42) + 0x9e3779b9),
    wwwHost: options.host.startsWith('www.') ? options.host : `www.${options.host}`,
    pickPage: picker(options.pages ? longTail(options.pages) : PAGES),
    maxPages: options.pagesPerVisit ? Math.ceil(options.pagesPerVisit * 4) : 6,
  };
  for (let day = options.days - 1; day >= 0; day -= 1) {
    const dayStart = Math.floor(options.now / 86_400_000) * 86_400_000 - day * 86_400_000;
    const weekday = new Date(dayStart).getUTCDay();
    const visitors = Math.round(
      options.visitorsPerDay * (weekday === 0 || weekday === 6 ? 0.6 : 1) * (0.8 + random() * 0.4),
    );
    const events: DemoEvent[] = [];
    for (let v = 0; v < visitors; v += 1) events.push(...visitEvents(traffic, dayStart));
    events.sort((a, b) => a.ts - b.ts);
    yield* events.filter((e) => e.ts <= options.now);
  }
}

export interface DemoTrafficOptions {
  trackingCode: string;
  host: string;
  days: number;
  visitorsPerDay: number;
  now: number;
  seed?: number;
  pages?: number;
  /** Mean page views of a visit beyond the first (default 1.3). */
  pagesPerVisit?: number;
  /** Share of visits that are recorded (replay chunks), 0 to 1 (default 0). */
  replayShare?: number;
}

/** What every visit of one run of demoTraffic draws from. */
interface Traffic {
  options: DemoTrafficOptions;
  random: () => number;
  tagging: () => number;
  wwwHost: string;
  pickPage: (random: () => number) => string;
  maxPages: number;
}

/** One visitor's visit, from a random time of the day: its page views and what came with them. */
interface Visit {
  ip: string;
  userAgent: string;
  screen: { width: number; height: number };
  url: (path: string) => string;
  recording: { sessionId: string; sequence: number } | null;
}

/** A visit's events; the draws are made in one fixed order, so a seed gives the same traffic. */
function visitEvents(traffic: Traffic, dayStart: number): DemoEvent[] {
  const { options, random, tagging } = traffic;
  const network = pick(random, NETWORKS);
  const ip = `${network}.${Math.floor(random() * 250) + 1}.${Math.floor(random() * 250) + 1}`;
  const userAgent = pick(random, AGENTS);
  const mobile = /Mobile|Android|iPhone/.test(userAgent);
  const screen = mobile ? { width: 390, height: 844 } : { width: 1920, height: 1080 };
  let ts = dayStart + Math.floor(random() * 86_400_000);
  const pages = Math.min(
    traffic.maxPages,
    1 + Math.floor(-Math.log(1 - random()) * (options.pagesPerVisit ?? 1.3)),
  );
  const recording =
    random() < (options.replayShare ?? 0)
      ? { sessionId: `rec-${Math.floor(random() * 2 ** 48).toString(36)}`, sequence: 0 }
      : null;
  let previous: string | null = pick(random, REFERRERS);
  const host = tagging() < 0.2 ? traffic.wwwHost : options.host;
  const visit: Visit = {
    ip,
    userAgent,
    screen,
    url: (path) => `https://${host}${path}`,
    recording,
  };
  const campaign = pick(tagging, CAMPAIGNS.get(previous) ?? [[null, 1]]);
  const events: DemoEvent[] = [];
  for (let p = 0; p < pages && ts <= options.now; p += 1) {
    const path = traffic.pickPage(random);
    const landing = p === 0 && campaign ? `?${new URLSearchParams(campaign).toString()}` : '';
    events.push(...pageEvents(traffic, visit, { path, ts, landing, referrer: previous }));
    previous = visit.url(path);
    ts += 5_000 + Math.floor(random() * 180_000);
  }
  return events;
}

/** A payload without what every event of a page carries (its tracking code, URL and screen). */
type EventBody = DemoEvent['payload'] extends infer Payload
  ? Payload extends unknown
    ? Omit<Payload, 'trackingCode' | 'url' | 'screen'>
    : never
  : never;

/** A page view, and the click, signup, purchase, error and recording chunk that may follow it. */
function pageEvents(
  traffic: Traffic,
  visit: Visit,
  view: { path: string; ts: number; landing: string; referrer: string | null },
): DemoEvent[] {
  const { random, tagging } = traffic;
  const { path, ts } = view;
  const { screen } = visit;
  const event = (at: number, body: EventBody): DemoEvent => ({
    ip: visit.ip,
    userAgent: visit.userAgent,
    ts: at,
    payload: { trackingCode: traffic.options.trackingCode, url: visit.url(path), screen, ...body },
  });
  const pageview = event(ts, { type: 'pageview', referrer: view.referrer });
  pageview.payload.url += view.landing;
  const events = [pageview];
  if (random() < 0.3) {
    events.push(
      event(ts + 2_000, {
        type: 'click',
        x: Math.floor(random() * screen.width),
        y: Math.floor(random() * 1600),
        viewport: screen,
      }),
    );
  }
  if (path === '/signup' && random() < 0.5)
    events.push(
      event(ts + 5_000, {
        type: 'event',
        name: 'Signup',
        props: { plan: random() < 0.3 ? 'pro' : 'free' },
      }),
    );
  if (path === '/pricing' && tagging() < 0.06) {
    const { plan, revenue } = pick(tagging, PURCHASES);
    const sale = (name: string, amount: number | string, at: number) =>
      event(at, {
        type: 'event',
        name,
        props: { plan },
        revenue: { amount, currency: revenue.currency },
      });
    events.push(sale('Purchase', revenue.amount, ts + 8_000));
    if (tagging() < 0.05) events.push(sale('Refund', `-${revenue.amount}`, ts + 600_000));
  }
  if (random() < 0.02) {
    const message = pick(random, [
      ["TypeError: Cannot read properties of undefined (reading 'id')", 3],
      ['ReferenceError: gtag is not defined', 2],
      ['NetworkError when attempting to fetch resource.', 1],
    ] as const);
    events.push(
      event(ts + 1_000, {
        type: 'error',
        message,
        stack: `${message}\n    at https://${traffic.options.host}/assets/app.js:1:${Math.floor(random() * 3) * 1000 + 100}`,
      }),
    );
  }
  const recording = visit.recording;
  if (recording)
    events.push(
      event(ts + 3_000, {
        type: 'replay',
        sessionId: recording.sessionId,
        sequence: (recording.sequence += 1) - 1,
        events: [{ type: 3, data: { source: 1, positions: [{ x: 10, y: 20 }] } }],
      }),
    );
  return events;
}
