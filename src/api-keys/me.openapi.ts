import type { ComponentSchemas } from '../http/openapi/components';
import { answer, type OperationSpec } from '../http/openapi/operation';
import type { Check, Same } from '../http/view-schemas';
import { meExample, meSchema, type Me } from './me-view';
import type { ApiPermissions } from '../identity/permissions';

export const ME_OPERATIONS: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/v1/me',
    operationId: 'getMe',
    summary: 'Who the key acts as, right now',
    description: "The key's owner, workspace, current role and the permissions it has on API & Webhooks.",
    tag: 'Identity',
    success: answer(200, 'The key and whom it acts as.', meSchema, meExample),
  },
];

export const ME_COMPONENTS: ComponentSchemas = { responses: { Me: meSchema } };

/** The route answers the actor's permissions as they are: held equal both ways. */
export type MeViewChecks = [Check<Same<Me['permissions'], ApiPermissions>>];
