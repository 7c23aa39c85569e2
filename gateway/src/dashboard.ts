import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, { Router } from 'express';
import helmet from 'helmet';
import { fromRoot } from '../../common/platform/paths';

export const DASHBOARD_DIST = fromRoot('dashboard', 'dist');

/**
 * The dashboard's single-page app, built by `npm run build` into dashboard/dist: hashed assets
 * cached for a year, index.html never, and index.html for any other page a browser asks for
 * (the app routes in the browser). Mounted after every API path, so it only sees the rest.
 */
export function dashboardRouter(
  options: { dist?: string; publicApiUrl?: string | null } = {},
): Router {
  const dist = options.dist ?? DASHBOARD_DIST;
  const router = Router();
  const index = path.join(dist, 'index.html');
  let page: string | null = null;
  // Read once; the External API's public origin goes in for the tracker snippets.
  const indexPage = () =>
    (page ??= withApiOrigin(readFileSync(index, 'utf8'), options.publicApiUrl ?? null));
  router.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
      // Sign-in links carry their secret in the URL: never pass it on as a referrer.
      referrerPolicy: { policy: 'no-referrer' },
      strictTransportSecurity: false,
    }),
  );
  router.use(
    '/assets',
    express.static(path.join(dist, 'assets'), { immutable: true, maxAge: '365d', index: false }),
  );
  router.use(express.static(dist, { index: false, maxAge: 0 }));
  router.get('/{*page}', (req, res, next) => {
    if (!req.accepts('html')) return next();
    res.setHeader('Cache-Control', 'no-cache');
    if (!existsSync(index)) {
      res
        .status(503)
        .type('text')
        .send('The dashboard is not built: run `npm run build` (npm start does it).');
      return;
    }
    res.type('html').send(indexPage());
  });
  return router;
}

function withApiOrigin(html: string, publicApiUrl: string | null): string {
  if (!publicApiUrl) return html;
  const escaped = publicApiUrl.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
  return html.replace('</head>', `<meta name="wa-api-origin" content="${escaped}" />\n</head>`);
}
