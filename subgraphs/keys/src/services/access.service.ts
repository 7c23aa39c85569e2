import { forbidden, notFound, unauthenticated } from '../../../../common/platform/errors';
import type { CallerIdentity } from '../../../../common/contracts/identity';
import type { AccountService, WebsiteView } from './account.service';

/** Which websites a caller may read: the rule of the spec's Authentication section, in one place. */
export class AccessService {
  constructor(private readonly accounts: AccountService) {}

  async accessibleWebsites(identity: CallerIdentity): Promise<WebsiteView[]> {
    switch (identity.kind) {
      case 'apiKey': {
        const memberships = await this.accounts.membershipsOfUser(identity.userId);
        // A key only reaches what its owner still reaches through the key's organization.
        if (!memberships.some((m) => m.organizationId === identity.organizationId)) return [];
        const websites = await this.accounts.websitesOfOrganization(identity.organizationId);
        if (identity.websiteIds === null) return websites;
        const allowed = new Set(identity.websiteIds);
        return websites.filter((w) => allowed.has(w.id));
      }
      case 'accessToken': {
        const memberships = await this.accounts.membershipsOfUser(identity.userId);
        const lists = await Promise.all(
          memberships.map((m) => this.accounts.websitesOfOrganization(m.organizationId)),
        );
        return lists.flat();
      }
      case 'service':
        throw forbidden('Services read websites by reference, not by listing');
      case 'anonymous':
        throw unauthenticated();
    }
  }

  /** The website, if the caller may read it; an unknown website and a forbidden one differ. */
  async website(identity: CallerIdentity, websiteId: string): Promise<WebsiteView> {
    const [website] = await this.accounts.websitesByIds([websiteId]);
    if (!website) throw notFound('Website');
    if (!(await this.mayRead(identity, website)))
      throw forbidden(
        identity.kind === 'apiKey'
          ? 'This key has no access to this website'
          : 'You are not a member of the organization that owns this website',
      );
    return website;
  }

  /** The same rule as accessibleWebsites, for one website, in one membership lookup. */
  async mayRead(identity: CallerIdentity, website: WebsiteView): Promise<boolean> {
    if (identity.kind === 'apiKey') {
      if (identity.organizationId !== website.organizationId) return false;
      if (identity.websiteIds !== null && !identity.websiteIds.includes(website.id)) return false;
      return this.accounts.isMember(identity.userId, website.organizationId);
    }
    if (identity.kind === 'accessToken')
      return this.accounts.isMember(identity.userId, website.organizationId);
    return false;
  }

  /**
   * The website, if the caller may manage it (its goals): an owner or admin of its organization,
   * or an API key that reaches it with the manage websites permission, which only owners and
   * admins may give a key. Whoever may not read it hears so first, as from `website`.
   */
  async websiteToManage(identity: CallerIdentity, websiteId: string): Promise<WebsiteView> {
    if (identity.kind === 'anonymous') throw unauthenticated();
    if (identity.kind === 'service') throw forbidden('Websites are managed by users');
    const website = await this.website(identity, websiteId);
    if (identity.kind === 'apiKey') {
      if (!identity.permissions.includes('manage_websites'))
        throw forbidden('This API key lacks the manage websites permission');
      return website;
    }
    const memberships = await this.accounts.membershipsOfUser(identity.userId);
    const role = memberships.find((m) => m.organizationId === website.organizationId)?.role;
    if (role !== 'owner' && role !== 'admin')
      throw forbidden('Only an organization owner or admin may manage its websites');
    return website;
  }

  async assertMember(identity: CallerIdentity, organizationId: string): Promise<void> {
    if (identity.kind !== 'apiKey' && identity.kind !== 'accessToken') throw unauthenticated();
    const memberships = await this.accounts.membershipsOfUser(identity.userId);
    if (!memberships.some((m) => m.organizationId === organizationId))
      throw notFound('Organization');
  }
}

/** Who may see and manage API keys through the dashboard's GraphQL. */
export class KeyAccessPolicy {
  constructor(private readonly accounts: AccountService) {}

  /** Members of the key's organization, and the key itself. */
  async assertCanRead(
    identity: CallerIdentity,
    key: { id: string; organizationId: string },
  ): Promise<void> {
    if (identity.kind === 'apiKey' && identity.keyId === key.id) return;
    if (identity.kind !== 'accessToken') throw notFound('API key');
    const memberships = await this.accounts.membershipsOfUser(identity.userId);
    if (!memberships.some((m) => m.organizationId === key.organizationId))
      throw notFound('API key');
  }

  /** The key's owner, or an owner/admin of its organization. */
  async assertCanManage(
    identity: CallerIdentity,
    key: { organizationId: string; userId: string },
  ): Promise<string> {
    if (identity.kind !== 'accessToken')
      throw forbidden('Keys are managed with a dashboard access token');
    const memberships = await this.accounts.membershipsOfUser(identity.userId);
    const membership = memberships.find((m) => m.organizationId === key.organizationId);
    if (!membership) throw notFound('API key');
    if (key.userId !== identity.userId && membership.role === 'member')
      throw forbidden('Only the key owner or an organization admin may do this');
    return identity.userId;
  }

  /** Any member may create keys for themselves. */
  async assertCanCreate(identity: CallerIdentity, organizationId: string): Promise<string> {
    if (identity.kind !== 'accessToken')
      throw forbidden('Keys are managed with a dashboard access token');
    const memberships = await this.accounts.membershipsOfUser(identity.userId);
    if (!memberships.some((m) => m.organizationId === organizationId))
      throw notFound('Organization');
    return identity.userId;
  }
}
