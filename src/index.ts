// What this package offers to code outside the service: the receiver's signature check.
export { signWebhookBody, verifyWebhookSignature } from './webhooks/signing/signature';
