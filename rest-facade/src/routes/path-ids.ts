import type { Request } from 'express';
import { notFound } from '../errors';
import { param } from './common';

/** A path parameter that names a record by its id, and what the record is called. */
export interface PathId {
  name: string;
  what: string;
}

export const WEBSITE_ID: PathId = { name: 'websiteId', what: 'Website' };
export const WEBHOOK_ID: PathId = { name: 'id', what: 'Webhook' };

/** Every id the platform hands out is a MongoDB ObjectId: 24 hexadecimal digits. */
const OBJECT_ID = /^[0-9a-f]{24}$/i;

export const canBeId = (value: string): boolean => OBJECT_ID.test(value);

/**
 * Refuses a path id that cannot be one with the 404 an unknown id gets, so that nothing is
 * asked, read or created about it (no operation, no cache lookup).
 */
export function refuseImpossibleId(id: PathId | undefined, req: Request): void {
  if (id && !canBeId(param(req, id.name))) throw notFound(`${id.what} not found`);
}
