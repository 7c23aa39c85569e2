import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type express from 'express';
import helmet from 'helmet';

/** What the schema explorer opens with: how to be a caller here, then a query that runs as one. */
const SCHEMA_EXPLORER_QUERY = `# Every operation here runs as a caller. Signed in to the dashboard on this
# origin, its session cookie is sent by itself. Otherwise, put an access token
# in the Headers tab below:
#
#   {"Authorization": "Bearer wat_…"}
#
# Make one with: npm run --silent admin -- token:create --user USER
# (USER is a user's id, as admin user:create prints it).
# API keys (svc_…) are for the REST API and are refused here.

query Me {
  me {
    email
  }
}
`;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * GET /graphql from a browser: GraphiQL, which its package inlines (about 9 MB, nothing from a
 * CDN). Rendered once; compressed once per encoding on first demand (brotli about 2 MB, gzip 2.4);
 * revalidated by ETag. Other GETs of /graphql (a `query` or `extensions` parameter) pass on.
 */
export function schemaExplorer(): express.RequestHandler[] {
  const page = renderGraphiQL({
    endpoint: '/graphql',
    title: 'Web Analytics supergraph',
    defaultQuery: SCHEMA_EXPLORER_QUERY,
  });
  const html = Buffer.from(page);
  const tag = createHash('sha256').update(html).digest('base64url').slice(0, 24);
  const bodies = new Map<string, Promise<Buffer>>([['identity', Promise.resolve(html)]]);
  const compressed = (encoding: 'br' | 'gzip' | 'identity') => {
    let body = bodies.get(encoding);
    if (!body) {
      body =
        encoding === 'br'
          ? brotli(html, {
              params: {
                // Quality 5: a tenth of a second once, 1.9 MB; 11 would take seconds for 1.7.
                [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: html.length,
              },
            })
          : gzip(html);
      bodies.set(encoding, body);
    }
    return body;
  };
  return [
    (req, _res, next) => {
      if (!req.accepts('html') || req.query.query || req.query.extensions) next('route');
      else next();
    },
    explorerHeaders(page),
    async (req, res) => {
      const accepted = req.acceptsEncodings('br', 'gzip', 'identity');
      const encoding = accepted === 'br' || accepted === 'gzip' ? accepted : 'identity';
      res.vary('Accept-Encoding');
      res.setHeader('Cache-Control', 'no-cache');
      res.setHeader('ETag', `"${tag}${encoding === 'identity' ? '' : `-${encoding}`}"`);
      res.type('html');
      if (req.fresh) {
        res.status(304).end();
        return;
      }
      const body = await compressed(encoding);
      if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
      res.setHeader('Content-Length', body.length);
      res.end(body);
    },
  ];
}

/**
 * The explorer's security headers (helmet): scripts only the page's own inline ones, by hash, and
 * the editor's workers, which it starts from blob: URLs; requests only to this origin; no framing
 * (X-Frame-Options DENY and frame-ancestors), no MIME sniffing, no referrer. Styles may be inline:
 * the editor sets them at run time.
 */
function explorerHeaders(page: string): express.RequestHandler {
  const inlineScripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, code]) => `'sha256-${createHash('sha256').update(code!).digest('base64')}'`,
  );
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...inlineScripts],
        workerSrc: ["'self'", 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
  });
}
