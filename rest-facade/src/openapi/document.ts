/**
 * The OpenAPI 3.1 document of the whole REST surface, generated from the route declarations
 * (routes/) and their zod schemas with @asteasolutions/zod-to-openapi. Served at
 * /api/external/v1/openapi.json; linted by `npm run lint:openapi`.
 */
import {
  OpenAPIRegistry,
  OpenApiGeneratorV31,
  type ResponseConfig,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import { ROUTES, TAGS, type RouteDeclaration } from '../routes';
import {
  AuthErrorSchema,
  EnvelopeErrorSchema,
  headerRefs,
  HEADER_COMPONENTS,
  type ErrorResponse,
} from '../routes/responses';
import { z } from 'zod';
import { EXAMPLE_NOW } from './examples';
import { jsonSchemaOf } from './json-schema';

type Headers = NonNullable<ResponseConfig['headers']>;
type ComponentOf<K extends 'responses'> = Parameters<
  typeof OpenAPIRegistry.prototype.registerComponent<K>
>[2];
type Reference = { $ref: string };

/** Every response of the facade carries X-Request-Id (docs/api.md, "Request ids"). */
const withRequestId = (headers: Record<string, unknown> = {}) =>
  ({ ...headerRefs('X-Request-Id'), ...headers }) as Headers;

const schemaRef = (name: string): Reference => ({ $ref: `#/components/schemas/${name}` });

/** An error body in one of the spec's two shapes, narrowed to the codes this response can carry. */
function errorResponseConfig(error: ErrorResponse): ResponseConfig {
  return {
    description: error.description,
    headers: withRequestId(error.headers),
    content: {
      'application/json': {
        schema: {
          allOf: [
            schemaRef(error.shape),
            { properties: { error: { properties: { code: { enum: [...error.codes] } } } } },
          ],
        },
      },
    },
  };
}

function successResponseConfig(route: RouteDeclaration): ResponseConfig {
  const { response } = route;
  // A route whose answers may be cached says how its answer was found (docs/api.md).
  const cached = route.auth === 'apiKey' && route.cache ? headerRefs('X-Cache') : {};
  const base = {
    description: response.description,
    headers: withRequestId({ ...response.headers, ...cached }),
  };
  if (!response.schema) return base;
  const envelope = response.envelope ?? true;
  const schema = envelope
    ? z.strictObject({
        success: z.literal(true),
        data: response.schema,
        timestamp: z.iso.datetime(),
      })
    : response.schema;
  const example = envelope
    ? { success: true, data: response.example, timestamp: EXAMPLE_NOW }
    : response.example;
  return {
    ...base,
    content: { [response.mediaType ?? 'application/json']: { schema, example } },
  };
}

/**
 * A body in one media type. As text/plain (the tracker's beacon, which sends no preflight) it is
 * a string holding the same JSON: described as such, so validators do not expect an object.
 */
function bodyContent(body: NonNullable<RouteDeclaration['body']>, type: string) {
  if (type !== 'text/plain') return { schema: schemaRef(body.component), example: body.example };
  return {
    schema: {
      type: 'string' as const,
      contentMediaType: 'application/json',
      contentSchema: schemaRef(body.component),
    },
    example: JSON.stringify(body.example),
  };
}

/**
 * Every GET also answers HEAD (the same call, counted and logged, without a body): declared as an
 * operation of its own so that validating proxies and generated clients know it.
 */
function headConfig(get: RouteConfig): RouteConfig {
  const responses = Object.fromEntries(
    Object.entries(get.responses).map(([status, response]) => [
      status,
      '$ref' in response
        ? response
        : { description: response.description, headers: response.headers },
    ]),
  );
  return {
    ...get,
    method: 'head',
    operationId: `${get.operationId}Head`,
    summary: `${get.summary} (headers only)`,
    description: `As GET ${get.path}, without the body.`,
    responses,
  };
}

/** `/websites/:websiteId` → `/websites/{websiteId}`. */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** Who may call it: the document's default (an API key), an access token, or anyone. */
const SECURITY: Record<RouteDeclaration['auth'], Pick<RouteConfig, 'security'>> = {
  apiKey: {},
  apiKeyWrite: {},
  accessToken: { security: [{ AccessToken: [] }] },
  none: { security: [] },
};

function routeConfig(
  route: RouteDeclaration,
  sharedResponses: Map<string, Reference>,
): RouteConfig {
  const errors = Object.entries(route.errors).map(([status, error]) => [
    status,
    error.component ? sharedResponses.get(error.component)! : errorResponseConfig(error),
  ]);
  const hasQuery = route.query && Object.keys(route.query.shape).length > 0;
  return {
    method: route.method,
    path: openApiPath(route.path),
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    description: route.description,
    ...SECURITY[route.auth],
    request: {
      ...(route.params ? { params: route.params } : {}),
      ...(hasQuery ? { query: route.query } : {}),
      ...(route.body
        ? {
            body: {
              required: true,
              content: Object.fromEntries(
                route.body.mediaTypes.map((type) => [type, bodyContent(route.body!, type)]),
              ),
            },
          }
        : {}),
    },
    responses: {
      [String(route.response.status)]: successResponseConfig(route),
      ...Object.fromEntries(errors),
    },
  };
}

export function openApiDocument() {
  const registry = new OpenAPIRegistry();
  for (const [name, header] of Object.entries(HEADER_COMPONENTS))
    registry.registerComponent('headers', name, header);
  registry.registerComponent('securitySchemes', 'ApiKeyHeader', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'Recommended. The key starts with svc_.',
  });
  registry.registerComponent('securitySchemes', 'BearerApiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'Authorization: Bearer svc_…',
  });
  registry.registerComponent('securitySchemes', 'AccessToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'Webhook management: Authorization: Bearer wat_…',
  });

  const sharedResponses = new Map<string, Reference>();
  const bodies = new Set<string>();
  for (const route of ROUTES) {
    for (const error of Object.values(route.errors)) {
      if (!error.component || sharedResponses.has(error.component)) continue;
      const response = errorResponseConfig(error) as ComponentOf<'responses'>;
      const { ref } = registry.registerComponent('responses', error.component, response);
      sharedResponses.set(error.component, ref);
    }
    // Request bodies are published with zod's own JSON Schema (io: input), which keeps every
    // bound the route enforces (safe-integer limits, property names, tuple lengths).
    if (route.body && !bodies.has(route.body.component)) {
      bodies.add(route.body.component);
      registry.registerComponent('schemas', route.body.component, jsonSchemaOf(route.body.schema));
    }
  }
  for (const route of ROUTES) {
    const config = routeConfig(route, sharedResponses);
    registry.registerPath(config);
    if (route.method === 'get') registry.registerPath(headConfig(config));
  }

  const generator = new OpenApiGeneratorV31(
    [
      ...registry.definitions,
      { type: 'schema', schema: AuthErrorSchema },
      { type: 'schema', schema: EnvelopeErrorSchema },
    ],
    { unionPreferredType: 'oneOf' },
  );
  const { webhooks: _none, ...document } = generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Web Analytics External API',
      version: '1.0.0',
      description:
        'Read-only REST API for analytics data (`/api/external/v1`), webhook management (`/v1/cli/mutate/webhooks`) and the public live-visitor count. See docs/api.md for the decisions behind every status code.\n\nPaths match exactly as written here (another case or a trailing slash is a 404). Every GET also answers HEAD: the same call, counted and logged, without the body. A 404 for an unknown path and a 405 come before the key is checked: they carry no usage headers and do not count.\n\nPolling: poll no more often than every 5 minutes; subscribe to webhooks for changes. On 429, wait `Retry-After` seconds, or back off exponentially (1–2, 2–4, 4–8, 8–16, 16–32 s).',
    },
    servers: [{ url: '/' }],
    tags: [...TAGS],
    security: [{ ApiKeyHeader: [] }, { BearerApiKey: [] }],
  });
  const { parameters: _noParameters, ...components } = document.components ?? {};
  const { openapi, ...rest } = document;
  return {
    openapi,
    // Said outright, so validators (Prism) read the schemas as 2020-12 rather than draft-07.
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    ...rest,
    tags: [...TAGS],
    components,
    paths: document.paths ?? {},
  };
}
