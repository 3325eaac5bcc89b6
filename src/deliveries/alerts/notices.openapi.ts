import type { ComponentSchemas } from '../../http/openapi/components';
import { answer, uuidParam, type OperationSpec } from '../../http/openapi/operation';
import type { Check, Same } from '../../http/view-schemas';
import { noticeListExample, noticeListSchema, noticeViewSchema, type NoticeList } from './notice-view';
import type { NoticesService } from './notices.service';

/** The caller's notices of failing and disabled webhooks. */
export const NOTICE_OPERATIONS: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/v1/notices',
    operationId: 'listNotices',
    summary: 'List your notices',
    description:
      "Needs Read access All on API & Webhooks. The caller's own notices not dismissed yet, newest first (at most 50): a webhook's endpoint turned Failing, or the service disabled the webhook. They go to the webhook's record owner and to each Admin, each their own; the same words went out by e-mail.",
    tag: 'Webhooks',
    success: answer(200, 'The open notices.', noticeListSchema, noticeListExample),
  },
  {
    method: 'post',
    path: '/api/v1/notices/{id}/dismiss',
    operationId: 'dismissNotice',
    summary: 'Dismiss a notice',
    description:
      "Needs Read access All on API & Webhooks. Only the caller's own notice: another's, or another workspace's, answers 404 `noticeNotFound`. Dismissing it again changes nothing. Answers the caller's notices still open.",
    tag: 'Webhooks',
    pathParams: { id: uuidParam('notice') },
    success: answer(200, 'The notices still open.', noticeListSchema, { data: [] }),
    refusals: { 404: ['noticeNotFound'] },
  },
];

export const NOTICE_COMPONENTS: ComponentSchemas = {
  responses: { Notice: noticeViewSchema, NoticeList: noticeListSchema },
};

/** Held equal to what the service answers. */
export type NoticeViewChecks = [
  Check<Same<Awaited<ReturnType<NoticesService['list']>>, NoticeList>>,
  Check<Same<Awaited<ReturnType<NoticesService['dismiss']>>, NoticeList>>,
];
