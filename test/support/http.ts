export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** A fetch that always returns status, headers and the parsed body (or the text when not JSON). */
export async function http<T = unknown>(
  url: string,
  init: RequestInit = {},
): Promise<JsonResponse<T>> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: response.status, headers: response.headers, body: body as T };
}

export function graphql<T = unknown>(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return http<{
    data?: T;
    errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
  }>(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
}
