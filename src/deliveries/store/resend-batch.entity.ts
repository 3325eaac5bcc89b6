import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { WebhookRow } from './webhook-row';

/** Why one delivery of a batch was not resent: the refusal a single resend would have answered. */
export interface ResendRefusal {
  /** The HTTP status of the refusal's kind (409 for a conflict, say). */
  status: number;
  customCode: string | null;
  message: string;
}

/**
 * "Resend failed since …": the Failed deliveries of one webhook chosen when it was asked for
 * (oldest first, at most RESEND_BATCH_MAX), resent a few at a time by a Temporal workflow as the
 * member (or API key) who asked.
 */
@Entity({ name: 'resend_batches' })
export class ResendBatch extends WebhookRow {
  /** Who asked; each resend acts as them, with their role as it is when it runs. */
  @Column({ name: 'requested_by_user_id', type: 'uuid' })
  requestedByUserId: string;

  /** The key they asked with (REST, MCP); null from the web app. A deleted or expired key stops the rest. */
  @Column({ name: 'api_key_id', type: 'uuid', nullable: true })
  apiKeyId: string | null;

  /** The OAuth connection they asked through (MCP); disconnecting it stops the rest. */
  @Column({ name: 'oauth_connection_id', type: 'uuid', nullable: true })
  oauthConnectionId: string | null;

  @Column({ type: 'timestamptz' })
  since: Date;

  @Column({ name: 'batch_limit', type: 'integer' })
  limit: number;

  /** The deliveries to resend, oldest first, chosen when the batch was asked for. */
  @Column({ name: 'delivery_ids', type: 'uuid', array: true })
  deliveryIds: string[];

  @Column({ name: 'more_remained', type: 'boolean' })
  moreRemained: boolean;

  @Column({ type: 'text', default: 'running' })
  status: 'running' | 'completed';

  @Column({ name: 'workflow_started_at', type: 'timestamptz', nullable: true })
  workflowStartedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;
}

/** What became of one delivery of a batch; its key is the guard against resending it twice. */
@Entity({ name: 'resend_batch_results' })
export class ResendBatchResult {
  @PrimaryColumn({ name: 'batch_id', type: 'uuid' })
  batchId: string;

  @PrimaryColumn({ name: 'delivery_id', type: 'uuid' })
  deliveryId: string;

  @Column({ type: 'integer' })
  position: number;

  @Column({ name: 'resent_delivery_id', type: 'uuid', nullable: true })
  resentDeliveryId: string | null;

  @Column({ type: 'jsonb', nullable: true })
  refusal: ResendRefusal | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
