import { generateSecret, sha256Hex } from '../../../../common/platform/secrets';
import type { KeysModels } from '../models';
import type { CredentialService } from './credential.service';

/** Prefix of a sign-in link's secret (never a credential: it only buys a session, once). */
export const LOGIN_LINK_PREFIX = 'wal_';
export const LOGIN_LINK_LIFETIME_MS = 15 * 60_000;
export const SESSION_TOKEN_NAME = 'Dashboard session';

/**
 * A new sign-in link's secret for the user with this email; null when there is no such user.
 * Also used by the admin CLI (`login:link`).
 */
export async function issueLoginLink(
  models: KeysModels,
  email: string,
  now = new Date(),
): Promise<string | null> {
  const user = await models.User.findOne({ email: email.trim().toLowerCase() }).lean();
  if (!user) return null;
  // Links are deleted when used; unused ones go here (FerretDB has no TTL indexes).
  await models.LoginLink.deleteMany({ expiresAt: { $lte: now } });
  const secret = generateSecret(LOGIN_LINK_PREFIX);
  await models.LoginLink.create({
    secretHash: sha256Hex(secret),
    userId: user._id,
    expiresAt: new Date(now.getTime() + LOGIN_LINK_LIFETIME_MS),
  });
  return secret;
}

export interface SessionSettings {
  /** How long a dashboard session lasts after sign-in. */
  sessionLifetimeMs: number;
}

/**
 * Dashboard sign-in: a one-time link (15 minutes) buys a session, which is an access token that
 * expires. Only hashes are stored, of links and of sessions alike.
 */
export class SignInService {
  constructor(
    private readonly models: KeysModels,
    private readonly credentials: CredentialService,
    private readonly settings: SessionSettings,
  ) {}

  issueLink(email: string, now = new Date()): Promise<string | null> {
    return issueLoginLink(this.models, email, now);
  }

  /**
   * Uses up the link (deleted atomically: of two concurrent redemptions one wins) and opens a
   * session. Null when the link is unknown, used or expired.
   */
  async redeem(
    secretHash: string,
    now = new Date(),
  ): Promise<{ token: string; id: string; prefix: string; expiresAt: Date } | null> {
    const link = await this.models.LoginLink.findOneAndDelete({
      secretHash,
      expiresAt: { $gt: now },
    }).lean();
    if (!link) return null;
    const expiresAt = new Date(now.getTime() + this.settings.sessionLifetimeMs);
    const session = await this.credentials.createAccessToken(
      String(link.userId),
      SESSION_TOKEN_NAME,
      undefined,
      expiresAt,
    );
    return { ...session, expiresAt };
  }

  /** Ends the session whose value has this hash; false when there was none. */
  end(secretHash: string): Promise<boolean> {
    return this.credentials.revokeAccessTokenByHash(secretHash);
  }
}
