// Notices of a webhook's endpoint (issue 37; docs/deliveries.md#when-an-endpoint-keeps-failing): what
// the owner and the Admins read in the app and by e-mail. Pure: the server and the web app use it.

export const NOTICE_KINDS = ['endpoint.failing', 'endpoint.disabled'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
