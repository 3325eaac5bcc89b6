import type { DataSource } from 'typeorm';

/** "Last used" of a credential is written at most once a minute, so a busy one does not write on every call. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Writes the `last_used_at` of the credentials of one table (API keys, OAuth connections): at most
 * once a minute per credential, by this process (it remembers its own writes) and across processes
 * (the update's condition keeps several API processes from writing the same minute twice).
 */
export class LastUsedWriter {
  private readonly written = new Map<string, number>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly table: 'api_keys' | 'oauth_connections',
  ) {}

  async touch(id: string, lastUsedAt: Date | null, now: Date): Promise<void> {
    const lastWrite = Math.max(this.written.get(id) ?? 0, lastUsedAt?.getTime() ?? 0);
    if (now.getTime() - lastWrite < LAST_USED_RESOLUTION_MS) return;
    this.written.set(id, now.getTime());
    await this.dataSource.query(
      `UPDATE ${this.table} SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $3)`,
      [id, now, new Date(now.getTime() - LAST_USED_RESOLUTION_MS)],
    );
  }
}
