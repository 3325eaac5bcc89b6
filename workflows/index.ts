// The workflows the worker registers; one workflow per file, re-exported here.
// This module is bundled by the Temporal worker and replayed deterministically: no I/O, no
// Date.now, no Math.random, no Node built-ins (.oxlintrc.json enforces it for workflows/).
export { deliveryWorkflow } from './delivery.workflow';
export { heldDeliveriesWorkflow } from './held-deliveries.workflow';
export { recordErasureWorkflow } from './record-erasure.workflow';
export { resendDeliveryWorkflow } from './resend-delivery.workflow';
export { resendFailedWorkflow } from './resend-failed.workflow';
