import type { CallerIdentity } from '../../../../common/contracts/identity';
import { accessTokenRequired } from '../errors';

/** The user behind a dashboard access token; anyone else may not manage webhooks. */
export function managingUser(identity: CallerIdentity): string {
  if (identity.kind !== 'accessToken') throw accessTokenRequired();
  return identity.userId;
}

export const isCaller = (identity: CallerIdentity, userId: string) =>
  (identity.kind === 'accessToken' || identity.kind === 'apiKey') && identity.userId === userId;
