import { http, type JsonResponse } from './http';
import { expectMatchesOpenApi } from './openapi';
import type { Stack } from './stack';

/**
 * Calls the External API through the facade and checks every response against the OpenAPI
 * document before handing it to the test.
 */
export async function callApi<T = Record<string, unknown>>(
  stack: Stack,
  method: string,
  path: string,
  options: {
    key?: string;
    headers?: Record<string, string>;
    body?: unknown;
    undocumented?: boolean;
  } = {},
): Promise<JsonResponse<T>> {
  const url = `${stack.facade.url}/api/external/v1${path}`;
  const headers: Record<string, string> = {
    ...(options.key ? { 'x-api-key': options.key } : {}),
    ...options.headers,
  };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await http<T>(url, {
    method,
    headers,
    body:
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body),
  });
  if (!options.undocumented) expectMatchesOpenApi(method, url, response as JsonResponse);
  return response;
}
