import { buildAccount, buildApiKey } from '../support/factories';
import { http } from '../support/http';
import { expectMatchesOpenApi } from '../support/openapi';
import type { Stack } from '../support/stack';

export const UA = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
};

/** Public IPs whose GeoIP country is stable in geoip-lite's bundled database. */
export const IP = { us: '8.8.8.8', gb: '81.2.69.142', br: '2.16.0.1' };

export interface Visit {
  ip: string;
  ua: string;
}

/** POSTs one event to the public collection endpoint as a browser behind a trusted proxy would. */
export async function collect(
  stack: Stack,
  visit: Visit,
  payload: Record<string, unknown>,
  extraHeaders: Record<string, string> = {},
) {
  const response = await http<{
    accepted?: boolean;
    success?: boolean;
    error?: { code: string; message: string };
  }>(`${stack.facade.url}/api/collect`, {
    method: 'POST',
    headers: {
      'content-type': 'text/plain',
      'user-agent': visit.ua,
      'x-forwarded-for': visit.ip,
      ...extraHeaders,
    },
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
  expectMatchesOpenApi('POST', '/api/collect', response);
  return response;
}

/** A Pro account with `websites` websites and a fresh key per call of `key()` (rate limits stay far). */
export async function analyticsAccount(stack: Stack, websites = 1) {
  const account = await buildAccount(stack, { plan: 'pro', websites });
  return {
    account,
    key: async (overrides: Parameters<typeof buildApiKey>[2] = {}) =>
      (await buildApiKey(stack, account, overrides)).key,
  };
}

/** Calls the External API with a key; every answer must match the OpenAPI document. */
export async function api<T = unknown>(
  stack: Stack,
  key: string,
  path: string,
  init: RequestInit = {},
) {
  const url = `${stack.facade.url}/api/external/v1${path}`;
  const response = await http<T>(url, {
    ...init,
    headers: { 'x-api-key': key, ...(init.headers ?? {}) },
  });
  expectMatchesOpenApi(init.method ?? 'GET', url, response);
  return response;
}

/** A public GET (live count, tracking script), checked against the OpenAPI document. */
export async function publicGet<T = unknown>(
  stack: Stack,
  path: string,
  headers: Record<string, string> = {},
) {
  const url = `${stack.facade.url}${path}`;
  const response = await http<T>(url, { headers });
  expectMatchesOpenApi('GET', url, response);
  return response;
}
