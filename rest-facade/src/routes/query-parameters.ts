import type { Request } from 'express';
import { invalidParameters } from '../api-error';

/**
 * Refuses query parameters a route does not accept. A misspelt filter (`ragne=30d`) would
 * otherwise fall back to the default without a word, and the caller would trust the wrong data.
 */
export function rejectUnknownQueryParameters(req: Request, accepted: readonly string[]): void {
  const unknown = Object.keys(req.query as Record<string, unknown>).filter(
    (name) => !accepted.includes(name),
  );
  if (unknown.length === 0) return;
  const names = unknown.map((name) => JSON.stringify(name)).join(', ');
  const hint =
    accepted.length > 0
      ? `this endpoint accepts ${accepted.join(', ')}`
      : 'this endpoint takes none';
  throw invalidParameters(
    `Unknown query parameter${unknown.length > 1 ? 's' : ''} ${names}; ${hint}`,
    { unknown, accepted },
  );
}
