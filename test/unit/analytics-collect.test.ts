import { collectPayloadSchema, describeIssues } from '../../rest-facade/src/collect/collect.schema';
import {
  countryOf,
  deviceOf,
  enrich,
  errorFingerprint,
  sourceOf,
  utmOf,
  visitorIdOf,
} from '../../rest-facade/src/collect/enrich';
import { UAParser } from 'ua-parser-js';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('collector: validation and enrichment', () => {
  it('DATA-6: when a payload has several problems, then each is named with its path', () => {
    const result = collectPayloadSchema.safeParse({
      type: 'click',
      trackingCode: 'wa-x',
      url: 'ftp://x',
      x: -1,
      y: 0,
    });
    expect(result.success).toBe(false);
    const message = describeIssues(result.error!);
    expect(message).toContain('url: must be an absolute http(s) URL');
    expect(message).toContain('x:');
    expect(message).toContain('viewport:');
  });

  it('DATA-6: when a custom event property name contains "." or starts with "$", then the payload is refused naming the property', () => {
    const result = collectPayloadSchema.safeParse({
      type: 'event',
      trackingCode: 'wa-x',
      url: 'https://shop.example/',
      name: 'signup',
      props: { 'plan.name': 'pro', $tier: 2, plan_size: 3 },
    });
    expect(result.success).toBe(false);
    const message = describeIssues(result.error!);
    expect(message).toContain('props: property name "plan.name" must be valid text');
    expect(message).toContain('props: property name "$tier" must be valid text');
    expect(message).not.toContain('plan_size');
  });

  it('DATA-6: when the page and referrer are known, then path and source are derived and nothing raw is kept', () => {
    const payload = collectPayloadSchema.parse({
      type: 'pageview',
      trackingCode: 'wa-x',
      url: 'https://shop.example/a/b?q=1#top',
      referrer: 'https://www.google.com/search?q=x',
    });
    const event = enrich(payload, {
      websiteId: 'w',
      ip: '8.8.8.8',
      userAgent: CHROME,
      countryHeader: undefined,
      salt: 's',
      now: 1,
    });
    expect(event).toMatchObject({
      path: '/a/b',
      source: 'google.com',
      country: 'US',
      device: 'desktop',
      browser: 'Chrome',
      os: 'Windows',
    });
    expect(JSON.stringify(event)).not.toContain('8.8.8.8');
    expect(JSON.stringify(event)).not.toContain('AppleWebKit');
  });

  it('DATA-6: when utm_source is present or the referrer is the site itself, then the source follows it', () => {
    expect(
      sourceOf(new URL('https://shop.example/?utm_source=Newsletter'), 'https://google.com/'),
    ).toBe('newsletter');
    expect(sourceOf(new URL('https://www.shop.example/'), 'https://shop.example/other')).toBe(
      'direct',
    );
    expect(sourceOf(new URL('https://shop.example/'), null)).toBe('direct');
  });

  it('DATA-6: when the page URL carries all five UTM parameters, then each is kept trimmed, in its case, and the source stays lower-cased', () => {
    const pageUrl = new URL(
      'https://Shop.Example/?utm_source=%20Newsletter%20&utm_medium=Email&utm_campaign=Spring+Sale&utm_content=Header_CTA&utm_term=web%20analytics',
    );
    expect(utmOf(pageUrl)).toEqual({
      source: 'Newsletter',
      medium: 'Email',
      campaign: 'Spring Sale',
      content: 'Header_CTA',
      term: 'web analytics',
    });
    expect(sourceOf(pageUrl, null)).toBe('newsletter');
  });

  it('DATA-6: when UTM parameters are absent, empty or long, then absent and empty ones are null and long ones are cut at 100 characters without splitting a character', () => {
    expect(utmOf(new URL('https://shop.example/?q=1'))).toBeNull();
    expect(utmOf(new URL('https://shop.example/?utm_source=&utm_medium=%20%20'))).toBeNull();
    const long = utmOf(
      new URL(
        `https://shop.example/?utm_campaign=${'a'.repeat(150)}&utm_term=${'b'.repeat(99)}${encodeURIComponent('😀')}`,
      ),
    );
    expect(long).toEqual({
      source: null,
      medium: null,
      campaign: 'a'.repeat(100),
      content: null,
      term: 'b'.repeat(99),
    });
  });

  it('DATA-6: when an event is enriched, then it carries the page hostname in lower case with www. kept, and its UTM parameters', () => {
    const facts = {
      websiteId: 'w',
      ip: '8.8.8.8',
      userAgent: CHROME,
      countryHeader: undefined,
      salt: 's',
      now: 1,
    };
    const pageview = enrich(
      collectPayloadSchema.parse({
        type: 'pageview',
        trackingCode: 'wa-x',
        url: 'https://WWW.Shop.Example:8443/a?utm_medium=cpc',
      }),
      facts,
    );
    expect(pageview).toMatchObject({
      hostname: 'www.shop.example',
      utm: { source: null, medium: 'cpc', campaign: null, content: null, term: null },
    });
    const click = enrich(
      collectPayloadSchema.parse({
        type: 'click',
        trackingCode: 'wa-x',
        url: 'https://docs.shop.example/',
        x: 1,
        y: 2,
        viewport: { width: 10, height: 10 },
      }),
      facts,
    );
    expect(click).toMatchObject({ hostname: 'docs.shop.example', utm: null });
  });

  it.each<[string, number | string, string]>([
    ['a number', 19.99, '19.99'],
    ['a negative number (a refund)', -5, '-5'],
    ['a sum with binary noise', 0.1 + 0.2, '0.30000000000000004'],
    ['a tiny number JavaScript writes with an exponent', 1e-7, '0.0000001'],
    ['2^53', 2 ** 53, '9007199254740992'],
    ['a decimal string with padding zeros', '+0019.900', '19.9'],
    ['a negative zero string', '-0.00', '0'],
    ['a string beyond double precision', '12345678901234.123456789', '12345678901234.123456789'],
  ])(
    'DATA-6: when a named event carries revenue as %s, then its amount is kept as the exact decimal string and the currency in upper case',
    (_case, amount, stored) => {
      const payload = collectPayloadSchema.parse({
        type: 'event',
        trackingCode: 'wa-x',
        url: 'https://shop.example/checkout',
        name: 'Purchase',
        revenue: { amount, currency: 'eur' },
      });
      const event = enrich(payload, {
        websiteId: 'w',
        ip: '8.8.8.8',
        userAgent: CHROME,
        countryHeader: undefined,
        salt: 's',
        now: 1,
      });
      expect(event).toMatchObject({ revenue: { amount: stored, currency: 'EUR' } });
    },
  );

  it('DATA-6: when a named event has no revenue, then its revenue is null', () => {
    const payload = collectPayloadSchema.parse({
      type: 'event',
      trackingCode: 'wa-x',
      url: 'https://shop.example/',
      name: 'Signup',
    });
    const event = enrich(payload, {
      websiteId: 'w',
      ip: '8.8.8.8',
      userAgent: CHROME,
      countryHeader: undefined,
      salt: 's',
      now: 1,
    });
    expect(event).toMatchObject({ revenue: null });
  });

  it.each<[string, unknown, string]>([
    ['an amount that is not a number', { amount: 'ten', currency: 'USD' }, 'revenue.amount'],
    ['an amount written with an exponent', { amount: '1e3', currency: 'USD' }, 'revenue.amount'],
    ['an amount of NaN', { amount: 'NaN', currency: 'USD' }, 'revenue.amount'],
    ['an amount of Infinity', { amount: 'Infinity', currency: 'USD' }, 'revenue.amount'],
    ['an amount beyond 2^53', { amount: 2 ** 53 + 2, currency: 'USD' }, 'revenue.amount'],
    [
      'a string amount beyond 2^53',
      { amount: '9007199254740992.01', currency: 'USD' },
      'revenue.amount',
    ],
    [
      'an amount with more than 20 digits after the point',
      { amount: `1.${'1'.repeat(21)}`, currency: 'USD' },
      'revenue.amount',
    ],
    [
      'a number written out in over 20 decimals',
      { amount: 5e-324, currency: 'USD' },
      'revenue.amount',
    ],
    ['a currency that is not ISO 4217', { amount: 1, currency: 'ABC' }, 'revenue.currency'],
    ['a currency of four letters', { amount: 1, currency: 'EURO' }, 'revenue.currency'],
    ['no currency', { amount: 1 }, 'revenue.currency'],
    ['an unknown field', { amount: 1, currency: 'USD', tax: 1 }, 'revenue'],
  ])(
    'DATA-6: when a named event carries revenue with %s, then the payload is refused naming the path',
    (_case, revenue, path) => {
      const result = collectPayloadSchema.safeParse({
        type: 'event',
        trackingCode: 'wa-x',
        url: 'https://shop.example/',
        name: 'Purchase',
        revenue,
      });
      expect(result.success).toBe(false);
      expect(describeIssues(result.error!)).toMatch(new RegExp(`^${path.replace('.', '\\.')}: `));
    },
  );

  it('DATA-6: when a page view carries revenue, then the payload is refused naming it', () => {
    const result = collectPayloadSchema.safeParse({
      type: 'pageview',
      trackingCode: 'wa-x',
      url: 'https://shop.example/',
      revenue: { amount: 1, currency: 'USD' },
    });
    expect(result.success).toBe(false);
    expect(describeIssues(result.error!)).toContain('revenue');
  });

  it('DATA-6: when a trusted proxy names the country, then it wins over GeoIP; unknown codes fall back', () => {
    expect(countryOf('8.8.8.8', 'de')).toBe('DE');
    expect(countryOf('8.8.8.8', 'XX')).toBe('US');
    expect(countryOf('127.0.0.1', undefined)).toBeNull();
  });

  it('DATA-6: when the salt changes, then the visitor id changes (daily rotation)', () => {
    expect(visitorIdOf('day1', 'w', '1.2.3.4', CHROME)).not.toBe(
      visitorIdOf('day2', 'w', '1.2.3.4', CHROME),
    );
    expect(visitorIdOf('day1', 'w', '1.2.3.4', CHROME)).toHaveLength(32);
  });

  it('DATA-6: when two stacks share message and first frame, then they share a fingerprint; another message gets another', () => {
    const a = errorFingerprint('boom', 'Error: boom\n    at f (app.js:1:10)');
    expect(
      errorFingerprint('boom', 'Error: boom\n    at f (app.js:1:10)\n    at g (app.js:9:9)'),
    ).toBe(a);
    expect(errorFingerprint('other', 'Error: other\n    at f (app.js:1:10)')).not.toBe(a);
  });

  it('DATA-6: when a desktop user agent comes with a phone-sized screen, then the device is mobile', () => {
    expect(deviceOf(new UAParser(CHROME).getResult(), 390)).toBe('mobile');
    expect(deviceOf(new UAParser(CHROME).getResult(), 1920)).toBe('desktop');
  });
});
