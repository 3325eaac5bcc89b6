import type { DataSource } from 'typeorm';
import type { Actor } from '../../identity/actor';
import { assertApiRight } from '../../identity/permissions';
import { notFoundError } from '../../shared/app-error';
import { noticeView, type NoticeList } from './notice-view';
import { NoticesRepository } from './notices.repository';

export const noticeNotFound = () => notFoundError('Notice not found.', 'noticeNotFound');

/**
 * The caller's own notices of failing and disabled webhooks (docs/deliveries.md#when-an-endpoint-keeps-failing),
 * for REST, MCP and the web app: nobody reads or dismisses another's, Admin included (each Admin
 * has their own).
 */
export class NoticesService {
  constructor(private readonly dataSource: DataSource) {}

  async list(actor: Actor): Promise<NoticeList> {
    assertApiRight(actor, 'apiRead');
    const rows = await new NoticesRepository(this.dataSource.manager).open(actor.workspace.id, actor.user.id);
    return { data: rows.map(noticeView) };
  }

  /** Dismisses one of the caller's notices (again: no change); answers those still open. */
  async dismiss(actor: Actor, id: string): Promise<NoticeList> {
    assertApiRight(actor, 'apiRead');
    const notices = new NoticesRepository(this.dataSource.manager);
    if (!(await notices.dismiss(actor.workspace.id, actor.user.id, id))) throw noticeNotFound();
    return { data: (await notices.open(actor.workspace.id, actor.user.id)).map(noticeView) };
  }
}
