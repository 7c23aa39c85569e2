import SwaggerParser from '@apidevtools/swagger-parser';
import { openApiDocument } from '../../rest-facade/src/openapi/document';

type Responses = Record<string, { description?: string; headers?: Record<string, unknown> }>;
const copy = () =>
  structuredClone(openApiDocument()) as unknown as { components: { responses: Responses } };

describe('the OpenAPI document', () => {
  it('SURF-1: when checked against the OpenAPI 3.1 schema and its own references, then it is valid', async () => {
    const document = openApiDocument();
    // validate() dereferences in place; the served document must keep its $refs.
    const checked = (await SwaggerParser.validate(
      structuredClone(document) as never,
    )) as unknown as {
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
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow(message);
  });
});
