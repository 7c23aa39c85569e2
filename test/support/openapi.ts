import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../rest-facade/src/openapi/document';
import type { JsonResponse } from './http';

const document = openApiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(document, 'openapi.json');

/** A path or a media type as one segment of a JSON pointer. */
export const pointerSegment = (segment: string) =>
  segment.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * What is wrong with `value` by the schema at `pointer` in the document (`#/components/…`), or
 * null when it matches.
 */
export function validateAt(pointer: string, value: unknown): string | null {
  const ref = `openapi.json${pointer}`;
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  return validate(value) ? null : ajv.errorsText(validate.errors);
}

function templateFor(path: string): string | undefined {
  return Object.keys(document.paths).find((template) => {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return pattern.test(path);
  });
}

function resolve<T>(node: unknown): T | undefined {
  let current = node as { $ref?: string } | undefined;
  while (current?.$ref) {
    const parts = current.$ref.replace('#/', '').split('/');
    current = parts.reduce<unknown>(
      (acc, part) => (acc as Record<string, unknown>)[part],
      document,
    ) as { $ref?: string };
  }
  return current as T | undefined;
}

type DocumentedResponse = {
  content?: Record<string, { schema: unknown }>;
  headers?: Record<string, unknown>;
};
type DocumentedHeader = { required?: boolean; schema: { type?: string } };

/** Headers of the contract: when a response carries one, its operation must document it. */
const CONTRACT_HEADERS = [
  'x-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-usage-monthly',
  'x-usage-limit',
  'x-usage-reset',
  'x-usage-total',
  'retry-after',
  'www-authenticate',
  'allow',
];

/**
 * Documented headers that are required must be present, and present ones must match their
 * schema (integers as decimal digits); a contract header the response carries must be documented.
 */
function checkHeaders(label: string, response: JsonResponse, documented: DocumentedResponse) {
  const headers = new Map(
    Object.entries(documented.headers ?? {}).map(([name, header]) => [
      name.toLowerCase(),
      resolve<DocumentedHeader>(header)!,
    ]),
  );
  for (const [name, header] of headers) {
    const value = response.headers.get(name);
    if (value === null) {
      if (header.required) throw new Error(`${label}: the required header ${name} is missing`);
      continue;
    }
    const candidate =
      header.schema.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
    if (!ajv.validate(header.schema, candidate))
      throw new Error(`${label}: header ${name}: ${JSON.stringify(value)} ${ajv.errorsText()}`);
  }
  for (const name of CONTRACT_HEADERS) {
    if (response.headers.get(name) !== null && !headers.has(name))
      throw new Error(`${label}: the response carries ${name}, which is not documented for it`);
  }
}

/**
 * Fails unless the response's status is documented for the operation, its headers agree with the
 * documented ones and its JSON body matches the documented schema.
 */
export function expectMatchesOpenApi(method: string, url: string, response: JsonResponse): void {
  const path = new URL(url, 'http://x').pathname;
  const template = templateFor(path);
  if (!template) throw new Error(`${path} is not in the OpenAPI document`);
  let operation = (
    document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>
  )[template]?.[method.toLowerCase()];
  // Methods a path does not offer are answered by the documented 405 response.
  if (!operation && response.status === 405)
    operation = { responses: { '405': { $ref: '#/components/responses/MethodNotAllowed' } } };
  if (!operation) throw new Error(`${method} ${template} is not in the OpenAPI document`);
  const status = String(response.status);
  const documented = operation.responses[status]
    ? status
    : operation.responses.default
      ? 'default'
      : undefined;
  if (!documented) throw new Error(`${method} ${template} does not document status ${status}`);
  const documentedResponse = resolve<DocumentedResponse>(operation.responses[documented]);
  checkHeaders(`${method} ${path} → ${status}`, response, documentedResponse ?? {});
  const content = documentedResponse?.content;
  if (!content?.['application/json']) return;
  const ref = (operation.responses[documented] as { $ref?: string }).$ref;
  const responsePointer =
    ref ?? `#/paths/${pointerSegment(template)}/${method.toLowerCase()}/responses/${documented}`;
  const problem = validateAt(`${responsePointer}/content/application~1json/schema`, response.body);
  if (problem) {
    throw new Error(
      `${method} ${path} → ${status} does not match the OpenAPI document: ${problem}\n${JSON.stringify(response.body)}`,
    );
  }
}
