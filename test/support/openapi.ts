import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../rest-facade/src/openapi/document';
import type { JsonResponse } from './http';

const document = openApiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(document, 'openapi.json');

const escape = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

function templateFor(path: string): string | undefined {
  return Object.keys(document.paths).find((template) => {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return pattern.test(path);
  });
}

function resolveResponse(
  node: unknown,
): { content?: Record<string, { schema: unknown }> } | undefined {
  let current = node as { $ref?: string } | undefined;
  while (current?.$ref) {
    const parts = current.$ref.replace('#/', '').split('/');
    current = parts.reduce<unknown>(
      (acc, part) => (acc as Record<string, unknown>)[part],
      document,
    ) as { $ref?: string };
  }
  return current as { content?: Record<string, { schema: unknown }> } | undefined;
}

/**
 * Fails unless the response's status is documented for the operation and its JSON body matches
 * the documented schema.
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
  const content = resolveResponse(operation.responses[documented])?.content;
  if (!content?.['application/json']) return;
  const pointer = `openapi.json#/paths/${escape(template)}/${method.toLowerCase()}/responses/${documented}`;
  const isRef = Boolean((operation.responses[documented] as { $ref?: string }).$ref);
  const schemaRef = isRef
    ? `openapi.json${(operation.responses[documented] as { $ref: string }).$ref}/content/application~1json/schema`
    : `${pointer}/content/application~1json/schema`;
  const validate = ajv.getSchema(schemaRef) ?? ajv.compile({ $ref: schemaRef });
  if (!validate(response.body)) {
    throw new Error(
      `${method} ${path} → ${status} does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(response.body)}`,
    );
  }
}
