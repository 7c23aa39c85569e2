import type { BaseContext } from '@apollo/server';
import type { CallerIdentity } from '../../common/contracts/identity';

export interface GatewayContext extends BaseContext {
  identity: CallerIdentity;
}
