import type { EntityManager } from 'typeorm';
import { NamedStatement, PreparedStatement } from '../../db/prepared';
import type { EndpointState, EndpointStateName } from '../../shared/deliveries/endpoint-state';

/** An endpoint: its webhook and the workspace the webhook belongs to. */
export interface EndpointKey {
  workspaceId: string;
  webhookId: string;
}

/** An endpoint's state as its owner reads it (epoch ms turned into a time). */
export interface StoredEndpointState {
  state: EndpointStateName;
  reason: string | null;
  since: Date;
}

/**
 * The one owner of endpoint_states: each endpoint's state as the workers last saw it change. The
 * workers write it when the state (or its reason) changes, not on every attempt; the webhook view
 * reads it.
 */
export class EndpointStatesRepository {
  constructor(private readonly manager: EntityManager) {}

  async load(webhookId: string): Promise<EndpointState | undefined> {
    const [row] = await LOAD.run(this.manager, [webhookId]);
    if (!row) return undefined;
    return {
      state: row.state as EndpointStateName,
      reason: row.reason as string | null,
      since: (row.since as Date).getTime(),
      failuresInARow: row.failures_in_a_row as number,
    };
  }

  /** Saves the state; an endpoint whose webhook was deleted meanwhile is left alone. */
  async save(key: EndpointKey, state: EndpointState): Promise<void> {
    await SAVE.run(this.manager, { ...key, ...state, since: new Date(state.since) });
  }

  /**
   * Marks the endpoint's Failing episode announced; true for the one caller that did (several
   * workers may see it turn Failing). A save of any other state opens the next episode.
   */
  async announceFailing(webhookId: string): Promise<boolean> {
    const rows = await ANNOUNCE_FAILING.run(this.manager, [webhookId]);
    return rows.length > 0;
  }

  /** Whether the stored state is Failing since `cutoff` or earlier (the auto-disable's check). */
  async failingSince(webhookId: string, cutoff: Date): Promise<boolean> {
    const rows = await FAILING_SINCE.run(this.manager, [webhookId, cutoff]);
    return rows.length > 0;
  }

  /** Forgets the endpoint's state (its webhook re-enabled by hand): its next attempts start afresh. */
  async clear(workspaceId: string, webhookId: string): Promise<void> {
    await this.manager.query(`DELETE FROM endpoint_states WHERE workspace_id = $1 AND webhook_id = $2`, [
      workspaceId,
      webhookId,
    ]);
  }

  /** The states of some webhooks of one workspace; a webhook never attempted has none. */
  async ofWebhooks(
    workspaceId: string,
    webhookIds: readonly string[],
  ): Promise<Map<string, StoredEndpointState>> {
    if (webhookIds.length === 0) return new Map();
    const rows: { webhook_id: string; state: EndpointStateName; reason: string | null; since: Date }[] =
      await this.manager.query(
        `SELECT webhook_id, state, reason, since FROM endpoint_states
          WHERE workspace_id = $1 AND webhook_id = ANY($2::uuid[])`,
        [workspaceId, webhookIds],
      );
    return new Map(
      rows.map((row) => [row.webhook_id, { state: row.state, reason: row.reason, since: row.since }]),
    );
  }

  /**
   * The enabled webhooks of one workspace whose endpoint is not healthy. Read through the
   * workspace's webhooks (its index on webhooks) and a primary-key probe of endpoint_states each:
   * the table has no index by workspace.
   */
  async notHealthyIn(workspaceId: string): Promise<string[]> {
    const rows: { webhook_id: string }[] = await this.manager.query(
      `SELECT e.webhook_id FROM webhooks w JOIN endpoint_states e ON e.webhook_id = w.id
        WHERE w.workspace_id = $1 AND w.enabled AND e.workspace_id = $1 AND e.state <> 'healthy'`,
      [workspaceId],
    );
    return rows.map((row) => row.webhook_id);
  }

  /** Of these webhooks, those whose stored state is not healthy (the held deliveries' check). */
  async notHealthyAmong(webhookIds: readonly string[]): Promise<Set<string>> {
    const rows = await NOT_HEALTHY_AMONG.run(this.manager, [webhookIds]);
    return new Set(rows.map((row) => row.webhook_id as string));
  }

  /** Every endpoint that is not healthy, for the metrics. */
  async unhealthy(): Promise<(EndpointKey & StoredEndpointState)[]> {
    const rows: {
      webhook_id: string;
      workspace_id: string;
      state: EndpointStateName;
      reason: string | null;
      since: Date;
    }[] = await this.manager.query(
      `SELECT webhook_id, workspace_id, state, reason, since FROM endpoint_states WHERE state <> 'healthy'`,
    );
    return rows.map((row) => ({
      webhookId: row.webhook_id,
      workspaceId: row.workspace_id,
      state: row.state,
      reason: row.reason,
      since: row.since,
    }));
  }
}

const LOAD = new PreparedStatement(
  `SELECT state, reason, since, failures_in_a_row FROM endpoint_states WHERE webhook_id = $1`,
);

const NOT_HEALTHY_AMONG = new PreparedStatement(
  `SELECT webhook_id FROM endpoint_states WHERE webhook_id = ANY($1::uuid[]) AND state <> 'healthy'`,
);

// The webhook may be gone (deleted while its last attempt ran): insert only while it exists.
const SAVE = new NamedStatement(
  ['webhookId', 'workspaceId', 'state', 'reason', 'since', 'failuresInARow'],
  `INSERT INTO endpoint_states (webhook_id, workspace_id, state, reason, since, failures_in_a_row, updated_at)
   SELECT $1::uuid, $2::uuid, $3::text, $4::text, $5::timestamptz, $6::integer, now()
    WHERE EXISTS (SELECT 1 FROM webhooks WHERE id = $1::uuid)
   ON CONFLICT (webhook_id) DO UPDATE
      SET state = EXCLUDED.state, reason = EXCLUDED.reason, since = EXCLUDED.since,
          failures_in_a_row = EXCLUDED.failures_in_a_row, updated_at = now(),
          failing_announced_at = CASE WHEN EXCLUDED.state = 'failing' THEN endpoint_states.failing_announced_at END`,
);

const ANNOUNCE_FAILING = new PreparedStatement(
  `UPDATE endpoint_states SET failing_announced_at = now()
    WHERE webhook_id = $1 AND state = 'failing' AND failing_announced_at IS NULL
    RETURNING webhook_id`,
);

const FAILING_SINCE = new PreparedStatement(
  `SELECT webhook_id FROM endpoint_states WHERE webhook_id = $1 AND state = 'failing' AND since <= $2`,
);
