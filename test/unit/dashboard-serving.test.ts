import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { dashboardRouter } from '../../gateway/src/dashboard';

async function serve(dist: string, publicApiUrl: string | null = null) {
  const app = express();
  app.get('/graphql', (_req, res) => res.json({ api: true }));
  app.use(dashboardRouter({ dist, publicApiUrl }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('the dashboard served by the gateway', () => {
  let dist: string;
  beforeAll(() => {
    dist = mkdtempSync(path.join(tmpdir(), 'dashboard-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head><title>Dashboard</title></head><body></body></html>',
    );
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('when a browser opens any page of the app, then it gets index.html, never cached, with a strict content security policy and no referrer', async () => {
    const { url, close } = await serve(dist);
    try {
      for (const page of ['/', '/keys', '/keys/abc', '/sign-in?token=wal_x']) {
        const response = await fetch(`${url}${page}`, { headers: { accept: 'text/html' } });
        expect(response.status).toBe(200);
        expect(await response.text()).toContain('<title>Dashboard</title>');
        expect(response.headers.get('cache-control')).toBe('no-cache');
        expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
        expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
        expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      }
      // API paths mounted before it are not shadowed.
      expect(await (await fetch(`${url}/graphql`)).json()).toEqual({ api: true });
      // A non-HTML request for an unknown path is not answered with the app.
      expect((await fetch(`${url}/nope`, { headers: { accept: 'application/json' } })).status).toBe(
        404,
      );
    } finally {
      await close();
    }
  });

  it("when PUBLIC_API_URL is set, then the page names the External API's origin for the tracker snippets", async () => {
    const { url, close } = await serve(dist, 'https://api.example.test');
    try {
      const html = await (
        await fetch(`${url}/websites`, { headers: { accept: 'text/html' } })
      ).text();
      expect(html).toContain('<meta name="wa-api-origin" content="https://api.example.test" />');
    } finally {
      await close();
    }
  });

  it('when a browser loads a hashed asset, then it may cache it for a year', async () => {
    const { url, close } = await serve(dist);
    try {
      const response = await fetch(`${url}/assets/index-abc123.js`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    } finally {
      await close();
    }
  });

  it('when the dashboard was not built, then its pages answer 503 saying how to build it', async () => {
    const { url, close } = await serve(path.join(dist, 'missing'));
    try {
      const response = await fetch(`${url}/keys`, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(503);
      expect(await response.text()).toContain('npm run build');
    } finally {
      await close();
    }
  });
});
