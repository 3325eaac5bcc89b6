import { revokeMemberApiKeys } from './api-keys/api-keys.revocation';
import type { IdentityHooks } from './identity/identity-hooks';
import { seedBuiltinModel } from './record-model/builtin-model';

/** The features above identity that react to its changes (composition root). */
export const identityHooks: IdentityHooks = {
  workspaceCreated: seedBuiltinModel,
  membershipEnded: revokeMemberApiKeys,
};
