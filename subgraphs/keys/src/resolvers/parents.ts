import type { CallerIdentity } from '../../../../common/contracts/identity';
import type { OrganizationView } from '../services/account.service';

/**
 * What `Query.viewer` hands to the `Viewer` fields: the caller by ids and the organization whose
 * plan applies (the `Viewer` mapper in codegen.ts).
 */
export interface ViewerParent {
  kind: CallerIdentity['kind'];
  userId: string;
  apiKeyId: string | null;
  billing: OrganizationView;
}
