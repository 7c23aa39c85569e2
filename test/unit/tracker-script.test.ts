import { runInNewContext } from 'node:vm';
import { collectPayloadSchema } from '../../rest-facade/src/collect/collect.schema';
import { enrich } from '../../rest-facade/src/collect/enrich';
import { TRACKER_SCRIPT } from '../../rest-facade/src/collect/tracker-script';

const PAGE = 'https://www.shop.example/pricing?utm_source=Newsletter&utm_campaign=Spring';

/** The tracker loaded on PAGE in a stand-in browser; what it sends is collected as JSON. */
function loadTracker() {
  const sent: Array<Record<string, unknown>> = [];
  const browser: Record<string, unknown> = {
    document: {
      currentScript: {
        src: 'https://collect.example/tracker.js',
        getAttribute: () => 'wa-test',
      },
      referrer: '',
      addEventListener: () => undefined,
    },
    location: { href: PAGE, pathname: '/pricing' },
    screen: { width: 1440, height: 900 },
    navigator: {
      sendBeacon: (_url: string, body: string) => sent.push(JSON.parse(body)) > 0,
    },
    history: { pushState: () => undefined },
    addEventListener: () => undefined,
    URL,
  };
  browser.window = browser;
  runInNewContext(TRACKER_SCRIPT, browser);
  const wa = browser.wa as { track(...args: unknown[]): void };
  return { sent, wa };
}

const facts = {
  websiteId: 'w',
  ip: '8.8.8.8',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  countryHeader: undefined,
  salt: 's',
  now: 1,
};

describe('tracking script wa.track', () => {
  it('DATA-6: when the page calls wa.track with a revenue, then the event is sent with it and stored with the page hostname and UTM parameters', () => {
    const { sent, wa } = loadTracker();

    wa.track('Purchase', { plan: 'pro' }, { revenue: { amount: 29.9, currency: 'eur' } });

    const body = sent.at(-1)!;
    expect(body).toMatchObject({
      type: 'event',
      name: 'Purchase',
      props: { plan: 'pro' },
      revenue: { amount: 29.9, currency: 'eur' },
      url: PAGE,
    });
    expect(enrich(collectPayloadSchema.parse(body), facts)).toMatchObject({
      revenue: { amount: '29.9', currency: 'EUR' },
      hostname: 'www.shop.example',
      utm: { source: 'Newsletter', campaign: 'Spring', medium: null },
    });
  });

  it('DATA-6: when the page calls wa.track with a name only, then the event is sent without props or revenue and accepted', () => {
    const { sent, wa } = loadTracker();

    wa.track('Signup');

    const body = sent.at(-1)!;
    expect(body).not.toHaveProperty('props');
    expect(body).not.toHaveProperty('revenue');
    expect(collectPayloadSchema.safeParse(body).success).toBe(true);
  });
});
