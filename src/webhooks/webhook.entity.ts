import { Column, Entity } from 'typeorm';
import { EditedRow } from '../db/workspace-row';
import type { RecordSource, RecordTrigger } from './record-source-schemas';

/** A webhook (docs/api.md#rest-endpoints). What leaves the service is decided by webhookView(). */
@Entity({ name: 'webhooks' })
export class Webhook extends EditedRow {
  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'text', array: true })
  events: string[];

  /** The operational events it receives beside `events` (docs/events.md#operational-events). */
  @Column({ name: 'operational_events', type: 'text', array: true, default: () => `'{}'` })
  operationalEvents: string[];

  /** The signing secret, sealed (SecretBox). Never returned: `hasSecret` reports it. */
  @Column({ name: 'secret_sealed', type: 'text', nullable: true })
  secretSealed: string | null;

  /**
   * After a rotation (issue 27, item 2): the secret it replaced, sealed like the current one, which
   * still signs `webhook-signature` until `previousSecretExpiresAt`. Never returned nor shown;
   * dropped by the sweep once its grace is over (and ignored from that moment on).
   */
  @Column({ name: 'previous_secret_sealed', type: 'text', nullable: true })
  previousSecretSealed: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true })
  previousSecretExpiresAt: Date | null;

  /** The custom headers `{ name: value }` as sealed JSON. Values never returned. */
  @Column({ name: 'headers_sealed', type: 'text', nullable: true })
  headersSealed: string | null;

  @Column({ name: 'header_names', type: 'text', array: true, default: () => `'{}'` })
  headerNames: string[];

  @Column({ name: 'body_template', type: 'text', nullable: true })
  bodyTemplate: string | null;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  /**
   * Why the service disabled the webhook (its endpoint kept failing, or answered 410 Gone;
   * docs/deliveries.md#when-an-endpoint-keeps-failing). null when enabled or disabled by a person.
   */
  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason: string | null;

  /** Since when the service has disabled it; null like disabledReason. */
  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  /**
   * Standard Webhooks headers on every POST (`webhook-id`, `webhook-timestamp`, `webhook-signature`;
   * issue 27, item 2), beside the spec's X-Webhook-Signature. On by default for new webhooks.
   */
  @Column({ name: 'standard_webhooks', type: 'boolean', default: true })
  standardWebhooks: boolean;

  /**
   * At most this many deliveries per second leave for the webhook, retries and resends included
   * (issue 37, item 3; docs/deliveries.md#rate-limit); null: no limit.
   */
  @Column({ name: 'rate_limit', type: 'integer', nullable: true })
  rateLimit: number | null;

  @Column({ name: 'record_trigger', type: 'jsonb', nullable: true })
  recordTrigger: RecordTrigger | null;

  @Column({ name: 'record_sources', type: 'jsonb', nullable: true })
  recordSources: RecordSource[] | null;

  @Column({ name: 'record_owner_user_id', type: 'uuid', nullable: true })
  recordOwnerUserId: string | null;

  /** The schema revision the record settings were checked against. */
  @Column({ name: 'schema_revision', type: 'integer', nullable: true })
  schemaRevision: number | null;

  /** Raised when the record trigger or sources change: a record-event resend checks it. */
  @Column({ name: 'sources_version', type: 'integer', default: 1 })
  sourcesVersion: number;

  /**
   * Set on a `listen` session's temporary endpoint (docs/listen.md#the-temporary-endpoint): it receives
   * deliveries until then (its stream extends it while open) and is removed after. null on a webhook.
   */
  @Column({ name: 'listener_until', type: 'timestamptz', nullable: true })
  listenerUntil: Date | null;
}
