import { openApiDocument } from '../../rest-facade/src/openapi/document';

type Response = { $ref?: string; headers?: Record<string, unknown> };

describe('the OpenAPI document', () => {
  it('when any documented response is read, then it lists X-Request-Id among its headers', () => {
    const document = openApiDocument();
    const components = document.components.responses as Record<string, Response>;
    const resolve = (response: Response) =>
      response.$ref ? components[response.$ref.split('/').pop()!]! : response;
    const missing: string[] = [];
    let checked = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(
        operations as Record<string, { responses: Record<string, Response> }>,
      )) {
        for (const [status, response] of Object.entries(operation.responses)) {
          checked += 1;
          if (!resolve(response).headers?.['X-Request-Id'])
            missing.push(`${method} ${path} ${status}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });
});
