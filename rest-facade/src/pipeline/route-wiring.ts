/**
 * The Express wiring of every declared route (routes/index.ts): one router per auth mode, each
 * route's handler composed once from its mode's steps, and on each declared path a 405 naming the
 * methods it serves for any other method. Paths match exactly (exact-paths.ts).
 */
import {
  Router,
  type Express,
  type IRouter,
  type NextFunction,
  type Request,
  type Response,
} from 'express';
import { recordMountPath } from '../../../common/platform/metrics';
import { notFound, rejectOtherMethods } from '../errors';
import type { ExternalApiDeps } from '../deps';
import { EXACT_PATHS } from '../exact-paths';
import { API_BASE, EVENTS_BASE, ROUTES, WEBHOOKS_BASE, type RouteDeclaration } from '../routes';
import type { AuthMode, PublicServices } from '../routes/route';
import { accessTokenHandler } from './access-token.pipeline';
import { apiKeyWriteHandler } from './api-key-write.pipeline';
import { apiKeyHandler } from './api-key.pipeline';
import { callLogger } from './call-logger';
import { publicHandler } from './public.pipeline';

export interface RouteServices extends Omit<PublicServices, 'deps'> {
  deps: ExternalApiDeps;
}

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'];

/** The methods each declared path serves, as Allow names them. */
function methodsByPath(routes: readonly RouteDeclaration[]): Map<string, string[]> {
  const methods = new Map<string, Set<string>>();
  for (const route of routes) {
    const served = methods.get(route.path) ?? new Set<string>();
    served.add(route.method.toUpperCase());
    // Express answers HEAD for every GET, and the document declares it.
    if (route.method === 'get') served.add('HEAD');
    methods.set(route.path, served);
  }
  return new Map(
    [...methods].map(([path, served]) => [path, METHOD_ORDER.filter((m) => served.has(m))]),
  );
}

/** Adds each route's handler and, on each of their paths, the 405 for other methods. */
function addRoutes(
  target: IRouter,
  services: RouteServices,
  allowed: Map<string, string[]>,
  routes: readonly RouteDeclaration[],
  relative: (path: string) => string,
): void {
  for (const route of routes) {
    const handler =
      route.auth === 'apiKey'
        ? apiKeyHandler(route, services.deps)
        : route.auth === 'apiKeyWrite'
          ? apiKeyWriteHandler(route, services)
          : route.auth === 'accessToken'
            ? accessTokenHandler(route, services.deps)
            : publicHandler(route, services, allowed.get(route.path)!);
    target[route.method](relative(route.path), handler);
  }
  for (const path of new Set(routes.map((route) => route.path)))
    target.all(relative(path), rejectOtherMethods(allowed.get(path)!));
}

function routerFor(
  mode: AuthMode,
  services: RouteServices,
  allowed: Map<string, string[]>,
  base: string,
  routes: readonly RouteDeclaration[],
): Router {
  const router = Router(EXACT_PATHS);
  // Calls made with a key are logged, also the 404s and 405s among them.
  const keyed = mode === 'apiKey' || mode === 'apiKeyWrite';
  if (keyed) router.use(callLogger(services.deps.callLog, base));
  addRoutes(router, services, allowed, routes, (path) => path.slice(base.length) || '/');
  if (keyed) router.use((_req: Request, _res: Response, next: NextFunction) => next(notFound()));
  return router;
}

/** Mounts every declared route on `app`, built once. */
export function wireRoutes(app: Express, services: RouteServices): void {
  const allowed = methodsByPath(ROUTES);
  const ofMode = (mode: AuthMode) => ROUTES.filter((route) => route.auth === mode);
  const underApi = (route: RouteDeclaration) => route.path.startsWith(`${API_BASE}/`);
  const publicRoutes = ofMode('none');
  // First: /api/external/v1/openapi.json is public, neither an API call nor logged as one; on the
  // app itself, so an API call passes it at the price of one path test. Each router is mounted at
  // its base, so a request walks only the routes that could match it.
  addRoutes(app, services, allowed, publicRoutes.filter(underApi), (path) => path);
  const mount = (base: string, mode: AuthMode, routes: readonly RouteDeclaration[]) =>
    app.use(base, recordMountPath, routerFor(mode, services, allowed, base, routes));
  mount(API_BASE, 'apiKey', ofMode('apiKey'));
  mount(EVENTS_BASE, 'apiKeyWrite', ofMode('apiKeyWrite'));
  mount(WEBHOOKS_BASE, 'accessToken', ofMode('accessToken'));
  app.use(
    routerFor(
      'none',
      services,
      allowed,
      '',
      publicRoutes.filter((route) => !underApi(route)),
    ),
  );
}
