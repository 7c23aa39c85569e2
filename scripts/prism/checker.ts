/**
 * Sends the check's exchanges through the two Prism proxies and keeps what each one found: the
 * violations that fail the check, the status, and which operations of the document were sent.
 */
import { readFileSync } from 'node:fs';
import { violationsOf, type PrismProxy, type Violation } from './proxy';

/**
 * Whether the document allows the request. Allowed ones go through the strict proxy (`--errors`),
 * where any violation fails; refused ones through the lenient proxy, which forwards them, where
 * Prism's complaint about the request is expected and only one about the response fails.
 */
export type RequestKind = 'allowed' | 'refused';

export interface Exchange {
  kind: RequestKind;
  method: string;
  /** Path and query. */
  path: string;
  headers?: Record<string, string>;
  /** Sent as application/json. */
  json?: unknown;
  /** Sent as is, with the content type `headers` name. */
  body?: string;
  /** The status the facade answers with. */
  status: number;
}

export interface Outcome {
  exchange: Exchange;
  status: number;
  /** Violations that fail the check. */
  violations: Violation[];
  /** Prism's complaints about a refused request (expected). */
  refusals: Violation[];
}

const isAboutRequest = (v: Violation) =>
  v.location === 'request' || v.location.startsWith('request.');

export class Checker {
  readonly outcomes: Outcome[] = [];

  constructor(
    private readonly strict: PrismProxy,
    private readonly lenient: PrismProxy,
  ) {}

  /** Sends one exchange through the proxy its kind calls for; returns its JSON body, if any. */
  async send<T = unknown>(exchange: Exchange): Promise<T | null> {
    const proxy = exchange.kind === 'allowed' ? this.strict : this.lenient;
    const headers = { ...exchange.headers };
    if (exchange.json !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${proxy.url}${exchange.path}`, {
      method: exchange.method,
      headers,
      body: exchange.json !== undefined ? JSON.stringify(exchange.json) : exchange.body,
      signal: AbortSignal.timeout(20_000),
    }).catch((error: unknown) => {
      throw new Error(`${exchange.method} ${exchange.path}: ${String(error)}`, { cause: error });
    });
    const text = await response.text();
    const found = violationsOf(response, text);
    // A HEAD answer has no body, so Prism's own answer cannot say why: its status does.
    if (
      exchange.method === 'HEAD' &&
      response.headers.get('content-type')?.startsWith('application/problem+json')
    )
      found.push({
        location: 'prism',
        severity: 'Error',
        message:
          response.status === 405
            ? 'Prism answered 405 itself: the document has no head operation for this path'
            : `Prism answered ${response.status} itself (its log says why)`,
      });
    const refused = exchange.kind === 'refused';
    this.outcomes.push({
      exchange,
      status: response.status,
      violations: refused ? found.filter((v) => !isAboutRequest(v)) : found,
      refusals: refused ? found.filter(isAboutRequest) : [],
    });
    try {
      return JSON.parse(text) as T;
    } catch {
      return null;
    }
  }
}

/**
 * The operations of `documentFile` no exchange was sent to, but for `head` ones: Prism 5.16
 * cannot proxy a HEAD whose answer says application/json (it parses the empty body and answers
 * 500), so the check sends HEAD to non-JSON resources only.
 */
export function operationsNotSent(documentFile: string, outcomes: Outcome[]): string[] {
  const document = JSON.parse(readFileSync(documentFile, 'utf8')) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const METHODS = ['get', 'put', 'post', 'delete', 'options', 'patch', 'trace'];
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  const sent = new Set<string>();
  for (const { exchange } of outcomes) {
    const pathname = new URL(exchange.path, 'http://x').pathname;
    const match = templates.find((t) => t.pattern.test(pathname));
    if (match) sent.add(`${exchange.method.toLowerCase()} ${match.template}`);
  }
  return Object.entries(document.paths).flatMap(([template, item]) =>
    METHODS.filter((method) => method in item && !sent.has(`${method} ${template}`)).map(
      (method) => `${method.toUpperCase()} ${template}`,
    ),
  );
}

/** Prints each failing exchange with its violations; returns how many failed. */
export function report(outcomes: Outcome[]): number {
  let failed = 0;
  for (const { exchange, status, violations, refusals } of outcomes) {
    const wrongStatus = status !== exchange.status;
    if (violations.length === 0 && !wrongStatus) continue;
    failed += 1;
    const contentType =
      exchange.json !== undefined ? 'application/json' : exchange.headers?.['content-type'];
    console.log(
      `FAIL ${exchange.method} ${exchange.path}${contentType ? ` (${contentType})` : ''}, ${exchange.kind} → ${status}${wrongStatus ? `, expected ${exchange.status}` : ''}`,
    );
    for (const v of violations) console.log(`    ${v.severity}  ${v.location}  ${v.message}`);
    for (const v of refusals) console.log(`    (expected) ${v.location}  ${v.message}`);
  }
  // A refused request Prism let through: the document says less than the facade enforces.
  for (const { exchange, status, refusals } of outcomes)
    if (exchange.kind === 'refused' && refusals.length === 0)
      console.log(
        `note: Prism finds nothing wrong with ${exchange.method} ${exchange.path}, which the facade answers ${status}`,
      );
  return failed;
}
