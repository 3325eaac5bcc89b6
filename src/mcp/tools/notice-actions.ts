import { z } from 'zod';
import { noticeListSchema } from '../../deliveries/alerts/notice-view';
import type { NoticesService } from '../../deliveries/alerts/notices.service';
import { defineAction, type WebhookAction } from './webhook-action';

/** The caller's notices of failing and disabled webhooks: read them, dismiss one. */
export function noticeActions(notices: NoticesService): WebhookAction[] {
  return [
    defineAction({
      action: 'list_notices',
      summary: 'Your notices of webhooks turned Failing or disabled (why).',
      input: z.strictObject({}),
      output: noticeListSchema,
      writes: false,
      run: async (_args, actor) => notices.list(actor),
    }),
    defineAction({
      action: 'dismiss_notice',
      summary: 'Dismisses one of your notices; answers those left.',
      input: z.strictObject({ noticeId: z.uuid().describe('From list_notices.') }),
      output: noticeListSchema,
      writes: true,
      run: async (args, actor) => notices.dismiss(actor, args.noticeId),
    }),
  ];
}
