import type { DataSource } from 'typeorm';
import type { TestEventsService } from '../deliveries/test-events/test-events.service';
import type { DeliveriesService } from '../deliveries/log/deliveries.service';
import type { RetryNowService } from '../deliveries/log/retry-now.service';
import type { ResendBatchesService } from '../deliveries/resend/resend-batches.service';
import type { RecordsService } from '../records/records.service';
import type { WebhooksService } from '../webhooks/webhooks.service';
import type { McpTool } from './mcp-tool';
import { webhookTools } from './tools/manage-webhooks.tool';
import { recordTools } from './tools/records.tools';

/** Every tool of the MCP endpoint, in the order `tools/list` shows them. */
export const mcpTools = (deps: {
  dataSource: DataSource;
  records: RecordsService;
  webhooks: WebhooksService;
  deliveries: DeliveriesService;
  retryNow: RetryNowService;
  testEvents: TestEventsService;
  resendBatches: ResendBatchesService;
}): McpTool[] => [...recordTools(deps), ...webhookTools(deps)];
