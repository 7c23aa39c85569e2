import { collectPayloadSchema, describeIssues } from '../../rest-facade/src/collect/collect.schema';
import {
  countryOf,
  deviceOf,
  enrich,
  errorFingerprint,
  sourceOf,
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
