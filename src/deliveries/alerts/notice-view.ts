import { z } from 'zod';
import { id, timestamp } from '../../http/view-schemas';
import { EXAMPLE } from '../../http/view-examples';
import { NOTICE_KINDS } from '../../shared/alerts/notices';
import type { NoticeRow } from './notices.repository';

/** A notice as its reader sees it (REST, MCP and the web app's bell). */
export const noticeViewSchema = z
  .object({
    id,
    kind: z.enum(NOTICE_KINDS).meta({
      description:
        '`endpoint.failing`: a webhook’s endpoint has just turned Failing. `endpoint.disabled`: the service disabled the webhook (it says why in `disabledReason`).',
    }),
    webhookId: id.nullable().meta({ description: 'The webhook it is about.' }),
    title: z.string(),
    message: z.string(),
    createdAt: timestamp,
  })
  .meta({
    description:
      'A notice to the webhook’s record owner or an Admin of the workspace, each their own: the same words went out by e-mail.',
  });
export type NoticeView = z.output<typeof noticeViewSchema>;

export const noticeListSchema = z
  .object({
    data: z.array(noticeViewSchema).meta({ description: 'Newest first, at most 50.' }),
  })
  .meta({ description: 'The caller’s notices not dismissed yet.' });
export type NoticeList = z.output<typeof noticeListSchema>;

export function noticeView(row: NoticeRow): NoticeView {
  return {
    id: row.id,
    kind: row.kind,
    webhookId: row.webhookId,
    title: row.title,
    message: row.message,
    createdAt: row.createdAt.toISOString(),
  };
}

export const noticeViewExample = {
  id: '0c9a8b7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d',
  kind: 'endpoint.disabled',
  webhookId: EXAMPLE.webhookId,
  title: 'Webhook disabled: https://example.com/hooks/crm',
  message:
    'The service disabled "New and changed deals to the billing system" (https://example.com/hooks/crm): The endpoint answered 410 Gone: the receiver says this address takes no more deliveries. It receives nothing until it is re-enabled (Re-enable on the Webhooks page, or PATCH enabled: true); deliveries of events meanwhile are not made.',
  createdAt: '2025-03-04T16:20:05.000Z',
} satisfies NoticeView;

export const noticeListExample = { data: [noticeViewExample] } satisfies NoticeList;
