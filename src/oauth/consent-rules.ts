import type { AdmissionRefusal } from '../api-keys/api-key-auth';
import { authorizationError, type AppError } from '../shared/app-error';

/**
 * Why a consent is refused, for each admission refusal a key or token would get in the same
 * workspace (docs/api.md#authentication): the same customCodes, words for the consent page.
 */
const CONSENT_REFUSALS: Record<AdmissionRefusal, { customCode: string; message: string }> = {
  plan_required: {
    customCode: 'workspacePlanRequired',
    message: 'This workspace has no plan yet: choose a plan before connecting apps.',
  },
  member_inactive: {
    customCode: 'memberInactive',
    message: 'You are Inactive in this workspace, so no app can act as you there.',
  },
  insufficient_permissions: {
    customCode: 'insufficientPermissions',
    message: 'Your role in this workspace needs Read access All on API & Webhooks to connect apps.',
  },
};

export const consentRefusalMessage = (reason: AdmissionRefusal) => CONSENT_REFUSALS[reason].message;

export function consentRefusal(reason: AdmissionRefusal): AppError {
  const { message, customCode } = CONSENT_REFUSALS[reason];
  return authorizationError(message, customCode);
}
