import type { Types } from 'mongoose';
import { onlyDuplicateKeys } from '../../../../common/platform/duplicate-keys';
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
  // Expired links and their claims go here (FerretDB has no TTL indexes), for every address
  // asked for, so that one without an account takes as long to answer as one with.
  await models.LoginLink.deleteMany({ expiresAt: { $lte: now } });
  await models.LoginLinkClaim.deleteMany({ expiresAt: { $lte: now } });
  const user = await models.User.findOne({ email: email.trim().toLowerCase() }).lean();
  if (!user) return null;
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
   * Uses up the link and opens a session; null when the link is unknown, used or expired. The
   * link is used by inserting its claim, which only one of any number of concurrent redemptions
   * can do, on MongoDB and FerretDB alike, and which needs nothing but the database the link is
   * in. A failure after the claim (the session could not be written) leaves the link used: the
   * caller gets the error and asks for a new link, but a link never opens two sessions.
   */
  async redeem(
    secretHash: string,
    now = new Date(),
  ): Promise<{ token: string; id: string; prefix: string; expiresAt: Date } | null> {
    const link = await this.models.LoginLink.findOne({
      secretHash,
      expiresAt: { $gt: now },
    }).lean();
    if (!link || !(await this.claim(link, now))) return null;
    const expiresAt = new Date(now.getTime() + this.settings.sessionLifetimeMs);
    const session = await this.credentials.createAccessToken(
      String(link.userId),
      SESSION_TOKEN_NAME,
      undefined,
      expiresAt,
    );
    return { ...session, expiresAt };
  }

  /** True for the one redemption whose insert of the link's claim succeeded. */
  private async claim(
    link: { _id: Types.ObjectId; userId: Types.ObjectId; expiresAt: Date },
    now: Date,
  ): Promise<boolean> {
    try {
      await this.models.LoginLinkClaim.create({
        _id: String(link._id),
        userId: link.userId,
        claimedAt: now,
        expiresAt: link.expiresAt,
      });
      return true;
    } catch (error) {
      if (onlyDuplicateKeys(error)) return false;
      throw error;
    }
  }

  /** Ends the session whose value has this hash; false when there was none. */
  end(secretHash: string): Promise<boolean> {
    return this.credentials.revokeAccessTokenByHash(secretHash);
  }
}
