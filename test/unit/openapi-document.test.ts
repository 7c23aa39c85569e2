import SwaggerParser from '@apidevtools/swagger-parser';
import type { GraphQLError } from 'graphql';
import {
  badInput,
  forbidden as noAccess,
  notFound as noSuch,
  beingChanged,
} from '../../common/platform/errors';
import {
  invalidApiKey as gatewayInvalidApiKey,
  invalidToken,
  keyExpired as gatewayKeyExpired,
  paidPlanRequired,
} from '../../gateway/src/errors';
import {
  ApiError,
  internalError,
  invalidJson,
  invalidParameters,
  methodNotAllowed,
  monthlyLimitExceeded,
  notFound,
  notJsonBody,
  rateLimited,
  unreadableBody,
  upstreamUnavailable,
  collectionUnavailable,
  forbidden,
  invalidApiKey,
  keyExpired,
  unknownTrackingCode as unknownTrackingCodeError,
} from '../../rest-facade/src/errors';
import { errorBody } from '../../rest-facade/src/envelope';
import { fromGraphQLErrors, toApiError } from '../../rest-facade/src/error-mapper';
import type { GraphQLErrorPayload } from '../../rest-facade/src/gateway-client';
import { openApiDocument } from '../../rest-facade/src/openapi/document';
import { queryBodySchema } from '../../rest-facade/src/routes/query-body';
import { MAX_LIMIT, MAX_OFFSET } from '../../rest-facade/src/routes/query-parameters';
import { DestinationRefusedError } from '../../subgraphs/webhooks/src/domain/destination-policy';
import {
  accessTokenRequired,
  invalidEventTypes,
  invalidWebhookUrl,
  tooManyTests,
  tooManyWebhooks,
  webhookNotFound,
} from '../../subgraphs/webhooks/src/errors';
import { pointerSegment, validateAt } from '../support/openapi';

type Responses = Record<string, { description?: string; headers?: Record<string, unknown> }>;
/** A copy of a document as the parser takes it (its types are not the generator's). */
const parserInput = (document: object) => JSON.parse(JSON.stringify(document));

const copy = () =>
  structuredClone(openApiDocument()) as unknown as { components: { responses: Responses } };

interface MediaType {
  schema: unknown;
  example?: unknown;
}
interface Response {
  $ref?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaType>;
}
interface Operation {
  operationId: string;
  description?: string;
  tags?: string[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, Response>;
}

const document = openApiDocument();
const ALL_OPERATIONS = Object.entries(document.paths as Record<string, Record<string, Operation>>)
  .flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  )
  .map((entry) => ({ ...entry, pointer: `#/paths/${pointerSegment(entry.path)}/${entry.method}` }));
/** HEAD operations mirror their GET (checked below); the rules here apply to the rest. */
const OPERATIONS = ALL_OPERATIONS.filter(({ method }) => method !== 'head');
const byId = new Map(OPERATIONS.map((entry) => [entry.operation.operationId, entry]));

/** A documented response, with its pointer in the document (a component's, for a $ref). */
function documentedResponse(operationId: string, status: string) {
  const entry = byId.get(operationId)!;
  const response = entry.operation.responses[status];
  if (!response) return undefined;
  if (!response.$ref) return { response, pointer: `${entry.pointer}/responses/${status}` };
  const name = response.$ref.split('/').pop()!;
  const components = document.components.responses as Record<string, Response>;
  return { response: components[name]!, pointer: response.$ref };
}

const schemaAt = (pointer: string, mediaType: string) =>
  `${pointer}/content/${pointerSegment(mediaType)}/schema`;

describe('the OpenAPI document', () => {
  it('when a path answers GET, then it declares HEAD with the same statuses and headers and no body', () => {
    const gets = ALL_OPERATIONS.filter(({ method }) => method === 'get');
    expect(gets.length).toBeGreaterThan(10);
    for (const { path, operation } of gets) {
      const head = ALL_OPERATIONS.find((entry) => entry.path === path && entry.method === 'head');
      expect(head?.operation.operationId).toBe(`${operation.operationId}Head`);
      const statuses = Object.keys(head!.operation.responses);
      expect(statuses).toEqual(Object.keys(operation.responses));
      for (const status of statuses) {
        const response = head!.operation.responses[status] as Record<string, unknown>;
        expect(response.content).toBeUndefined();
        const own = operation.responses[status] as Record<string, unknown>;
        expect(response.headers ?? response.$ref).toEqual(own.headers ?? own.$ref);
      }
    }
  });

  it('SURF-1: when checked against the OpenAPI 3.1 schema and its own references, then it is valid', async () => {
    // validate() dereferences in place; the served document must keep its $refs.
    const checked = (await SwaggerParser.validate(parserInput(document))) as unknown as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(checked.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(checked.paths)).toEqual(Object.keys(document.paths));
  });

  it.each([
    [
      'a response without its required description',
      (responses: Responses) => delete responses.NotFound!.description,
      /description/,
    ],
    [
      'a reference to a header component that does not exist',
      (responses: Responses) =>
        (responses.NotFound!.headers = { 'X-Nope': { $ref: '#/components/headers/X-Nope' } }),
      /X-Nope/,
    ],
  ])('when the document has %s, then validation fails', async (_what, breakIt, message) => {
    const broken = copy();
    breakIt(broken.components.responses);
    await expect(SwaggerParser.validate(parserInput(broken))).rejects.toThrow(message);
  });

  it('when any operation is read, then it has a description and only declared tags', () => {
    const declared: string[] = document.tags.map((tag) => tag.name);
    const problems = OPERATIONS.flatMap(({ method, path, operation }) => [
      ...(operation.description ? [] : [`${method} ${path}: no description`]),
      ...(operation.tags?.length ? [] : [`${method} ${path}: no tag`]),
      ...(operation.tags ?? [])
        .filter((tag) => !declared.includes(tag))
        .map((tag) => `${method} ${path}: undeclared tag ${tag}`),
    ]);
    expect(problems).toEqual([]);
    expect(document.tags.every((tag) => tag.description.length > 0)).toBe(true);
  });

  it('when a success response or a request body has a JSON schema, then its example validates against it', () => {
    const problems: string[] = [];
    let checked = 0;
    const check = (label: string, pointer: string, content: Record<string, MediaType>) => {
      for (const [mediaType, media] of Object.entries(content)) {
        if (!('example' in media)) {
          problems.push(`${label} ${mediaType}: no example`);
          continue;
        }
        checked += 1;
        const error = validateAt(schemaAt(pointer, mediaType), media.example);
        if (error) problems.push(`${label} ${mediaType}: ${error}`);
      }
    };
    for (const { method, path, operation, pointer } of OPERATIONS) {
      const label = `${method} ${path}`;
      if (operation.requestBody)
        check(`${label} request`, `${pointer}/requestBody`, operation.requestBody.content);
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!status.startsWith('2') || !response.content) continue;
        check(`${label} ${status}`, `${pointer}/responses/${status}`, response.content);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(OPERATIONS.length - 5);
  });

  it('when an example is broken, then the check finds it', () => {
    const { pointer, response } = documentedResponse('getUsage', '200')!;
    const example = response.content!['application/json']!.example as { data: object };
    const broken = { ...example, data: { ...example.data, tier: 'gold' } };
    expect(validateAt(schemaAt(pointer, 'application/json'), broken)).toMatch(/tier/);
  });

  it('when an operation can be refused for the request, then it documents a 4xx (redocly.yaml turns the rule off for the three that cannot)', () => {
    const never = ['getOpenApi', 'collectPreflight', 'livePreflight'];
    const without = OPERATIONS.filter(
      ({ operation }) => !Object.keys(operation.responses).some((status) => status.startsWith('4')),
    ).map(({ operation }) => operation.operationId);
    expect(without.sort()).toEqual(never.sort());
  });

  it('when the document is read, then no schema uses prefixItems (tuples are fixed-length arrays)', () => {
    expect(JSON.stringify(document)).not.toContain('prefixItems');
  });

  describe('QueryRequest', () => {
    const example = byId.get('queryAnalytics')!.operation.requestBody!.content['application/json']!
      .example as Record<string, unknown>;
    const schemaPointer = '#/components/schemas/QueryRequest';

    it.each([
      ['the example', {}],
      ['a limit above the clamp (answered with at most 1000 rows)', { limit: MAX_LIMIT * 5 }],
      ['limit 0', { limit: 0 }],
      ['the largest safe integer as limit', { limit: Number.MAX_SAFE_INTEGER }],
      ['a limit past the safe integers', { limit: 2 ** 53 }],
      ['the largest offset', { offset: MAX_OFFSET }],
      ['an offset past the largest', { offset: MAX_OFFSET + 1 }],
      ['a date range of three dates', { date_range: ['2026-03-01', '2026-03-02', '2026-03-03'] }],
      ['a filter without values', { filters: [['is', 'country', []]] }],
      ['an unknown field', { page: 2 }],
    ])('when the body has %s, then the document and the route agree on it', (_what, change) => {
      const body = { ...example, ...change };
      const routeAccepts = queryBodySchema.safeParse(body).success;
      expect(validateAt(schemaPointer, body) === null).toBe(routeAccepts);
    });
  });

  describe('error code enums', () => {
    const external = OPERATIONS.filter(
      ({ path, operation }) =>
        path.startsWith('/api/external/v1/') && operation.operationId !== 'getOpenApi',
    ).map(({ operation }) => operation.operationId);
    const tagged = (tag: string) =>
      OPERATIONS.filter(({ operation }) => operation.tags?.includes(tag));
    const webhooks = tagged('Webhooks').map(({ operation }) => operation.operationId);
    const webhookById = tagged('Webhooks')
      .filter(({ path }) => path.includes('{id}'))
      .map(({ operation }) => operation.operationId);
    const viaGateway = (error: GraphQLError) =>
      fromGraphQLErrors([error.toJSON() as GraphQLErrorPayload]);
    const conflict = viaGateway(beingChanged('The webhook'));
    const unknownTrackingCode = unknownTrackingCodeError();
    const badPath = toApiError(new URIError('Failed to decode param'));
    const tooLarge = toApiError({ type: 'entity.too.large' });
    const badEncoding = toApiError({ type: 'encoding.unsupported' });

    /** Which operations each error the code base produces can reach. */
    const PRODUCED: Array<[string[], ApiError[]]> = [
      [
        external,
        [
          invalidParameters('range must be one of …'),
          badPath,
          invalidApiKey(),
          keyExpired('key'),
          viaGateway(gatewayInvalidApiKey()),
          viaGateway(gatewayKeyExpired('key')),
          forbidden('This API key lacks the read_analytics permission'),
          viaGateway(paidPlanRequired('key')),
          viaGateway(noAccess('The caller has no access to this website')),
          viaGateway(badInput('limit must be a positive integer')),
          notFound(),
          viaGateway(noSuch('Website')),
          methodNotAllowed(['GET', 'HEAD']),
          rateLimited('Rate limit of 30 requests per minute exceeded', 12),
          monthlyLimitExceeded('Monthly quota used up'),
          internalError(),
          fromGraphQLErrors([]),
          upstreamUnavailable(),
          fromGraphQLErrors([{ message: 'down', extensions: { httpStatus: 503 } }]),
        ],
      ],
      [
        ['queryAnalytics'],
        [
          invalidJson(),
          unreadableBody(),
          toApiError({ type: 'entity.parse.failed' }),
          tooLarge,
          notJsonBody(),
          badEncoding,
        ],
      ],
      [
        webhooks,
        [
          viaGateway(invalidToken()),
          viaGateway(accessTokenRequired()),
          methodNotAllowed(['POST']),
          internalError(),
          upstreamUnavailable(),
        ],
      ],
      [
        ['createWebhook'],
        [
          invalidJson(),
          invalidParameters('The body must be …'),
          viaGateway(
            invalidWebhookUrl(new DestinationRefusedError('https_required', 'https only')),
          ),
          viaGateway(invalidEventTypes(['page.viewed'])),
          viaGateway(tooManyWebhooks(20)),
          conflict,
          tooLarge,
          notJsonBody(),
          badEncoding,
        ],
      ],
      [webhookById, [badPath, viaGateway(webhookNotFound())]],
      [['deleteWebhook', 'rotateWebhookSecret'], [conflict]],
      [['testWebhook'], [viaGateway(tooManyTests(10, 42))]],
      [
        ['collectEvent'],
        [
          invalidJson(),
          unreadableBody(),
          invalidParameters('type: invalid input'),
          unknownTrackingCode,
          tooLarge,
          badEncoding,
          rateLimited('Events are limited to 600 requests per minute per IP', 7),
          collectionUnavailable('Events cannot be taken now', 30),
          upstreamUnavailable(),
        ],
      ],
      [
        ['trackEvents'],
        [
          invalidParameters('website_id: expected string'),
          invalidJson(),
          unreadableBody(),
          badPath,
          invalidApiKey(),
          keyExpired('key'),
          viaGateway(paidPlanRequired('key')),
          forbidden('This API key lacks the track_events permission'),
          viaGateway(noAccess('This key has no access to this website')),
          notFound('Website not found'),
          viaGateway(noSuch('Website')),
          methodNotAllowed(['POST']),
          rateLimited('Rate limit of 30 requests per minute exceeded', 12),
          monthlyLimitExceeded('Monthly quota used up'),
          tooLarge,
          notJsonBody(),
          badEncoding,
          collectionUnavailable('Redis cannot be reached to check idempotency keys', 30),
          internalError(),
          upstreamUnavailable(),
        ],
      ],
      [['getTrackerScript'], [methodNotAllowed(['GET', 'HEAD'])]],
      [['collectEvent'], [methodNotAllowed(['POST', 'OPTIONS'])]],
      [['getLiveVisitors'], [methodNotAllowed(['GET', 'HEAD', 'OPTIONS'])]],
      [
        ['getLiveVisitors'],
        [
          badPath,
          unknownTrackingCode,
          rateLimited('Live visitor counts are limited', 7),
          upstreamUnavailable(),
        ],
      ],
    ];
    const refusals = new Map<string, ApiError[]>();
    for (const [operationIds, errors] of PRODUCED)
      for (const id of operationIds) refusals.set(id, [...(refusals.get(id) ?? []), ...errors]);

    /** What is wrong with the document's answer for `error` on `operationId`, if anything. */
    function undocumented(operationId: string, error: ApiError): string | null {
      const label = `${error.status} ${error.code}`;
      const documented = documentedResponse(operationId, String(error.status));
      if (!documented) return `${label}: status not documented`;
      const { response, pointer } = documented;
      const problem = validateAt(schemaAt(pointer, 'application/json'), errorBody(error));
      if (problem) return `${label}: ${problem}`;
      const headers = Object.keys(response.headers ?? {}).map((name) => name.toLowerCase());
      const missing = Object.keys(error.headers).filter((h) => !headers.includes(h.toLowerCase()));
      return missing.length > 0 ? `${label}: headers ${missing.join(', ')} not documented` : null;
    }

    it('when the refusals are listed, then every operation that can be refused has some', () => {
      const uncovered = OPERATIONS.map(({ operation }) => operation.operationId).filter(
        (id) =>
          !refusals.has(id) && !['getOpenApi', 'collectPreflight', 'livePreflight'].includes(id),
      );
      expect(uncovered).toEqual([]);
    });

    it.each([...refusals])(
      'when %s is refused, then the document lists each status, code, body and header the code base gives',
      (operationId, errors) => {
        const problems = errors
          .map((error) => undocumented(operationId, error))
          .filter((problem) => problem !== null);
        expect(problems).toEqual([]);
      },
    );

    it('when an error response is read, then its code is an enum', () => {
      const missing: string[] = [];
      for (const { operation, method, path } of OPERATIONS) {
        for (const status of Object.keys(operation.responses)) {
          if (!/^[45]/.test(status)) continue;
          const { response } = documentedResponse(operation.operationId, status)!;
          const schema = response.content?.['application/json']?.schema as {
            allOf?: Array<{
              properties?: { error?: { properties?: { code?: { enum?: unknown } } } };
            }>;
          };
          if (!Array.isArray(schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum))
            missing.push(`${method} ${path} ${status}`);
        }
      }
      expect(missing).toEqual([]);
    });

    it('when a body carries a code the response does not list, then it does not validate', () => {
      const { pointer } = documentedResponse('listVisitors', '404')!;
      const body = errorBody(
        new ApiError({ status: 404, code: 'unknown_tracking_code', message: 'No website' }),
      );
      expect(validateAt(schemaAt(pointer, 'application/json'), body)).toMatch(/allowed values/);
    });
  });
});
