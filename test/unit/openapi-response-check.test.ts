import { expectMatchesOpenApi } from '../support/openapi';

const USAGE_URL = 'http://127.0.0.1/api/external/v1/usage';
const usageBody = {
  success: true,
  data: {
    tier: 'pro',
    monthly_requests: 1,
    monthly_limit: 10000,
    remaining_requests: 9999,
    requests_per_minute: 30,
    reset_at: '2026-12-01T00:00:00.000Z',
    total_requests: 1,
  },
  timestamp: '2026-11-22T04:00:00.000Z',
};
const usageHeaders = {
  'x-request-id': '0b7c6f0e-3f3c-4a58-9a43-2b9f4b7f1c11',
  'x-ratelimit-limit': '30',
  'x-ratelimit-remaining': '29',
  'x-usage-monthly': '1',
  'x-usage-limit': '10000',
  'x-usage-reset': '2026-12-01T00:00:00.000Z',
  'x-usage-total': '1',
};
const check =
  (headers: Record<string, string>, status = 200, body: unknown = usageBody) =>
  () =>
    expectMatchesOpenApi('GET', USAGE_URL, { status, headers: new Headers(headers), body });

/** The check every integration test runs on every response; here it is shown to fail. */
describe('the OpenAPI response check of the tests', () => {
  it('when a response agrees with the document, then it passes', () => {
    expect(check(usageHeaders)).not.toThrow();
  });

  it.each([
    ['a required header is missing', { ...usageHeaders, 'x-request-id': '' }, /x-request-id/],
    [
      'an integer header is not a number',
      { ...usageHeaders, 'x-usage-total': 'many' },
      /x-usage-total/,
    ],
    [
      'a date header is not ISO 8601',
      { ...usageHeaders, 'x-usage-reset': 'tomorrow' },
      /x-usage-reset/,
    ],
    [
      'an undocumented contract header is sent',
      { ...usageHeaders, 'retry-after': '5' },
      /retry-after.*not documented/,
    ],
  ])('when %s, then it fails', (_what, headers, message) => {
    const sent = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== ''));
    expect(check(sent)).toThrow(message);
  });

  it('when the body does not match its schema, then it fails', () => {
    expect(check(usageHeaders, 200, { ...usageBody, data: { tier: 'pro' } })).toThrow(
      /does not match the OpenAPI document/,
    );
  });

  it('when the status is not documented for the operation, then it fails', () => {
    expect(check(usageHeaders, 418)).toThrow(/does not document status 418/);
  });
});
