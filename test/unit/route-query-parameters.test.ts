import { openApiDocument } from '../../rest-facade/src/openapi/document';
import { ROUTES } from '../../rest-facade/src/routes';

type Operation = { parameters?: Array<{ name: string; in: string }> };

describe('query parameters of the External API routes', () => {
  const paths = openApiDocument().paths as Record<string, Record<string, Operation>>;

  it.each(ROUTES.map((route) => [route.method.toUpperCase(), route.path, route] as const))(
    'DATA-6: %s %s accepts exactly the query parameters the OpenAPI document lists',
    (_method, path, route) => {
      const documented =
        paths[`/api/external/v1${path.replace(/:(\w+)/g, '{$1}')}`]?.[route.method];
      expect(documented).toBeDefined();
      const names = (documented!.parameters ?? [])
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => parameter.name);
      expect([...route.query].sort()).toEqual(names.sort());
    },
  );
});
