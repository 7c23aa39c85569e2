/**
 * Stoplight Prism's validating proxy (`prism proxy <document> <upstream>`) as a child process on
 * a free loopback port, and what it found wrong with one exchange.
 *
 * Prism reports each request's violations in the `sl-violations` response header. With
 * `--errors` it also answers itself instead of the upstream: 422 (or 401) for a request that
 * breaks the document, without forwarding it; 500 for an upstream response that breaks it; 404
 * or 405 for a path or method the document lacks. Those answers are application/problem+json
 * with a `type` under https://stoplight.io/prism/errors#.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { fromRoot } from '../../common/platform/paths';
import { freePort, stopChild } from '../lib/engines';

const PRISM_CLI = fromRoot('node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
const START_TIMEOUT_MS = 30_000;

export interface Violation {
  /** `request` or `response`, then where: e.g. request.query.limit, response.body.data.0.id. */
  location: string;
  severity: string;
  message: string;
}

export interface PrismProxy {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts `prism proxy` on `document` in front of `upstream`; resolves once it listens. CORS
 * handling is off so that preflights reach the upstream; its log goes to `logFile`.
 */
export async function startPrismProxy(
  document: string,
  upstream: string,
  options: { errors: boolean; logFile: string },
): Promise<PrismProxy> {
  const port = await freePort();
  const args = [
    PRISM_CLI,
    'proxy',
    document,
    upstream,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--cors=false',
    `--errors=${options.errors}`,
  ];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, FORCE_COLOR: '0', SCARF_ANALYTICS: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(options.logFile);
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const listening = new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () =>
        reject(new Error(`prism did not listen within ${START_TIMEOUT_MS / 1000} s:\n${output}`)),
      START_TIMEOUT_MS,
    );
    const watch = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8_000);
      if (output.includes('Prism is listening on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', watch);
    child.stderr.on('data', watch);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`prism exited (${code ?? signal}) before listening:\n${output}`));
    });
  });
  const stop = async () => {
    await stopChild(child);
    log.end();
  };
  try {
    await listening;
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, stop };
}

const PRISM_ERROR = 'https://stoplight.io/prism/errors#';

interface PrismProblem {
  type?: string;
  title?: string;
  detail?: string;
  validation?: Array<{ location?: string[]; severity?: string; message?: string }>;
}

/**
 * Every violation Prism reported for one exchange: the `sl-violations` header, and when Prism
 * answered itself (a problem of its own type), that answer. `body` is the response's text.
 */
export function violationsOf(response: Response, body: string): Violation[] {
  const violations: Violation[] = [];
  const header = response.headers.get('sl-violations');
  if (header) {
    const json = header.startsWith('Too many violations! ') ? null : header;
    if (json === null) violations.push({ location: '', severity: 'Error', message: header });
    else
      for (const v of JSON.parse(json) as Array<{
        location: string[];
        severity: string;
        message: string;
      }>)
        violations.push({
          location: v.location.join('.'),
          severity: v.severity,
          message: v.message,
        });
  }
  if (response.headers.get('content-type')?.startsWith('application/problem+json')) {
    let problem: PrismProblem | null = null;
    try {
      problem = JSON.parse(body) as PrismProblem;
    } catch {
      /* not Prism's */
    }
    if (problem?.type?.startsWith(PRISM_ERROR)) {
      const listed = problem.validation ?? [];
      // Its 422 for a request lists where in the request, without saying so.
      for (const v of listed)
        violations.push({
          location: ['request', 'response'].includes(v.location?.[0] ?? '')
            ? v.location!.join('.')
            : ['request', ...(v.location ?? [])].join('.'),
          severity: v.severity ?? 'Error',
          message: v.message ?? '',
        });
      if (listed.length === 0)
        violations.push({
          location: 'prism',
          severity: 'Error',
          message: `${problem.type.slice(PRISM_ERROR.length)}: ${problem.detail ?? problem.title ?? ''}`,
        });
    }
  }
  // The header and Prism's own answer may list the same ones.
  const seen = new Set<string>();
  return violations.filter((v) => {
    const key = `${v.location}\u0000${v.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
