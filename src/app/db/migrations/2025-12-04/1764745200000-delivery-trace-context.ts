import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The trace a delivery's workflow start continues (docs/observability.md#where-a-trace-stops): with
 * tracing on, the record write that commits a delivery keeps its W3C trace context here, and the
 * worker process that claims the delivery (or the dispatch sweep that starts it late) starts its
 * workflow in that trace. Null without tracing. A nullable column without a default: PostgreSQL
 * records it in the catalog only, without rewriting or scanning the table, so it is instant however
 * many deliveries there are (it takes the table's lock for that moment only).
 */
export class DeliveryTraceContext1764745200000 implements MigrationInterface {
  name = 'DeliveryTraceContext1764745200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE deliveries ADD COLUMN trace_context jsonb`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE deliveries DROP COLUMN trace_context`);
  }
}
