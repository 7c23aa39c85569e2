import type { Request } from 'express';
import { openApiDocument } from '../../rest-facade/src/openapi/document';
import { ROUTES } from '../../rest-facade/src/routes';
import {
  acceptedNames,
  HEATMAP_PAGES,
  pagedQuery,
  parsePage,
  parseRange,
  rejectUnknownQueryParameters,
} from '../../rest-facade/src/routes/query-parameters';
import type { ApiKeyRoute } from '../../rest-facade/src/routes/route';

type Operation = { parameters?: Array<{ name: string; in: string }> };

/** The part of an Express request the parse functions read. */
const withQuery = (query: Record<string, unknown>) => ({ query }) as unknown as Request;
const refusal = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    const { status, code, message, details } = error as {
      status: number;
      code: string;
      message: string;
      details?: unknown;
    };
    return { status, code, message, details };
  }
  throw new Error('expected a refusal');
};

describe('query parameters of the External API routes', () => {
  const paths = openApiDocument().paths as Record<string, Record<string, Operation>>;
  const apiKeyRoutes = ROUTES.filter((route): route is ApiKeyRoute => route.auth === 'apiKey');

  it.each(apiKeyRoutes.map((route) => [route.method.toUpperCase(), route.path, route] as const))(
    'DATA-6: %s %s accepts exactly the query parameters the OpenAPI document lists, in its order',
    (_method, path, route) => {
      const documented = paths[path.replace(/:(\w+)/g, '{$1}')]?.[route.method];
      expect(documented).toBeDefined();
      const names = (documented!.parameters ?? [])
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => parameter.name);
      expect(acceptedNames(route.query)).toEqual(names);
    },
  );

  it('when a parameter the route does not declare is sent, then 400 names it and the accepted ones', () => {
    const accepted = acceptedNames(pagedQuery());
    expect(
      refusal(() => rejectUnknownQueryParameters(withQuery({ ragne: '30d', x: '1' }), accepted)),
    ).toEqual({
      status: 400,
      code: 'invalid_parameters',
      message:
        'Unknown query parameters "ragne", "x"; this endpoint accepts range, timeRange, limit, offset',
      details: { unknown: ['ragne', 'x'], accepted: ['range', 'timeRange', 'limit', 'offset'] },
    });
  });

  it('when a route declares no parameter and one is sent, then 400 says it takes none', () => {
    const websites = ROUTES.find((route) => route.operationId === 'listWebsites') as ApiKeyRoute;
    expect(
      refusal(() =>
        rejectUnknownQueryParameters(withQuery({ range: '7d' }), acceptedNames(websites.query)),
      ).message,
    ).toBe('Unknown query parameter "range"; this endpoint takes none');
  });

  it.each([
    [{ range: '2w' }, 'range must be one of 24h, 7d, 30d, 90d, 1y (got "2w")'],
    [{ range: '7d', timeRange: '30d' }, 'range and timeRange disagree; send one of them'],
    [{ range: ['7d', '7d'] }, 'range must be given once, as a plain value'],
  ])('when the range is %j, then 400: %s', (query, message) => {
    expect(refusal(() => parseRange(withQuery(query)))).toMatchObject({ status: 400, message });
  });

  it.each([
    [{}, 'LAST_7_DAYS'],
    [{ timeRange: '30d' }, 'LAST_30_DAYS'],
    [{ range: '24h', timeRange: '24h' }, 'LAST_24_HOURS'],
  ])('when the range is %j, then it reads %s', (query, expected) => {
    expect(parseRange(withQuery(query))).toBe(expected);
  });

  it.each([
    [{ limit: '1.5' }, 'limit must be an integer (got "1.5")'],
    [{ limit: '' }, 'limit must be an integer (got "")'],
    [{ limit: '0' }, 'limit must be at least 1 (got 0)'],
    [{ offset: '-1' }, 'offset must be at least 0 (got -1)'],
    [{ offset: '2000000001' }, 'offset must be at most 2000000000'],
  ])('when the page is %j, then 400: %s', (query, message) => {
    expect(refusal(() => parsePage(withQuery(query)))).toMatchObject({ status: 400, message });
  });

  it('when a limit above the route maximum is asked for, then it is clamped', () => {
    expect(parsePage(withQuery({ limit: '5000' }))).toEqual({ limit: 1000, offset: 0 });
    expect(parsePage(withQuery({}), HEATMAP_PAGES)).toEqual({ limit: 10, offset: 0 });
    expect(parsePage(withQuery({ limit: '500' }), HEATMAP_PAGES).limit).toBe(100);
  });
});
