import express, { type Request, type Response } from 'express';

/**
 * A JSON body reader to call where a route wants its body, rather than middleware that reads it
 * before anything else: so a caller without a valid credential gets 401, not 400 or 413 for
 * its body. Not strict: `null` or `[]` is JSON, and the route's schema says what it expected.
 */
export function jsonBodyReader(
  limit: number | string,
): (req: Request, res: Response) => Promise<void> {
  const parse = express.json({ limit, strict: false });
  return (req, res) =>
    new Promise((resolve, reject) => {
      parse(req, res, (error?: unknown) => (error ? reject(error) : resolve()));
    });
}
