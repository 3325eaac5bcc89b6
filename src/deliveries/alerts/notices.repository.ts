import type { EntityManager } from 'typeorm';
import type { NoticeKind } from '../../shared/alerts/notices';

interface NoticeRecipientAddress {
  email: string;
  name: string;
}

/** Someone a notice goes to: the webhook's owner or an Admin, Active in the workspace. */
export interface NoticeRecipient extends NoticeRecipientAddress {
  userId: string;
}

export interface NewNotice {
  workspaceId: string;
  webhookId: string;
  kind: NoticeKind;
  title: string;
  message: string;
}

export interface NoticeRow {
  id: string;
  workspaceId: string;
  userId: string;
  webhookId: string | null;
  kind: NoticeKind;
  title: string;
  message: string;
  createdAt: Date;
  dismissedAt: Date | null;
}

/** A notice not mailed yet, with what its e-mail needs. */
export interface UnmailedNotice extends NoticeRecipientAddress {
  id: string;
  kind: NoticeKind;
  title: string;
  message: string;
}

/** A reader's notices at most, newest first (older ones stay until dismissed). */
export const NOTICES_LISTED = 50;

const COLUMNS = `id, workspace_id AS "workspaceId", user_id AS "userId", webhook_id AS "webhookId", kind, title,
  message, created_at AS "createdAt", dismissed_at AS "dismissedAt"`;

/**
 * The one owner of the notices table: a notice per recipient, so each reads and dismisses their
 * own. Every read names the workspace and the reader: nobody reaches another's notice.
 */
export class NoticesRepository {
  constructor(private readonly manager: EntityManager) {}

  /**
   * Who hears of a webhook's endpoint: its record owner (the member who made it, by default) and
   * the workspace's Admins, while Active.
   */
  async recipients(workspaceId: string, ownerUserId: string | null): Promise<NoticeRecipient[]> {
    return this.manager.query(
      `SELECT u.id AS "userId", u.email, u.name
         FROM members m JOIN users u ON u.id = m.user_id JOIN roles r ON r.id = m.role_id
        WHERE m.workspace_id = $1 AND m.status = 'active' AND (r.is_admin OR m.user_id = $2)
        ORDER BY u.email`,
      [workspaceId, ownerUserId],
    );
  }

  /** One notice per recipient; the ids, in the recipients' order. */
  async insert(notice: NewNotice, recipients: readonly NoticeRecipient[]): Promise<string[]> {
    if (!recipients.length) return [];
    const rows: { id: string }[] = await this.manager.query(
      `INSERT INTO notices (workspace_id, user_id, webhook_id, kind, title, message)
       SELECT $1, user_id, $2, $3, $4, $5 FROM unnest($6::uuid[]) WITH ORDINALITY AS r(user_id, n)
       ORDER BY n
       RETURNING id`,
      [
        notice.workspaceId,
        notice.webhookId,
        notice.kind,
        notice.title,
        notice.message,
        recipients.map((recipient) => recipient.userId),
      ],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Locks up to `limit` notices never mailed, made between `from` and `to`, oldest first, with
   * their reader's address; rows another transaction holds are skipped. Call within a transaction,
   * which keeps them locked while they are mailed.
   */
  async lockUnmailed(from: Date, to: Date, limit: number): Promise<UnmailedNotice[]> {
    return this.manager.query(
      `SELECT n.id, n.kind, n.title, n.message, u.email, u.name
         FROM notices n JOIN users u ON u.id = n.user_id
        WHERE n.mailed_at IS NULL AND n.dismissed_at IS NULL AND n.created_at >= $1 AND n.created_at < $2
        ORDER BY n.created_at
        LIMIT ${limit}
          FOR UPDATE OF n SKIP LOCKED`,
      [from, to],
    );
  }

  async markMailed(id: string): Promise<void> {
    await this.manager.query(`UPDATE notices SET mailed_at = now() WHERE id = $1`, [id]);
  }

  /** The reader's notices not dismissed, newest first. */
  async open(workspaceId: string, userId: string): Promise<NoticeRow[]> {
    return this.manager.query(
      `SELECT ${COLUMNS} FROM notices
        WHERE workspace_id = $1 AND user_id = $2 AND dismissed_at IS NULL
        ORDER BY created_at DESC, id LIMIT ${NOTICES_LISTED}`,
      [workspaceId, userId],
    );
  }

  /** Dismisses the reader's own notice; the notice, or null when it is not theirs (or not there). */
  async dismiss(workspaceId: string, userId: string, id: string): Promise<NoticeRow | null> {
    const rows: NoticeRow[] = await this.manager.query(
      `WITH dismissed AS (
         UPDATE notices SET dismissed_at = coalesce(dismissed_at, now())
          WHERE workspace_id = $1 AND user_id = $2 AND id = $3
          RETURNING ${COLUMNS})
       SELECT * FROM dismissed`,
      [workspaceId, userId, id],
    );
    return rows[0] ?? null;
  }
}
