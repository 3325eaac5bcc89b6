import { createHash, randomBytes } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { LessThan, Not } from 'typeorm';
import { Session } from './session.entity';

/** Sessions last 30 days from sign-in. */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Starts a session; returns the cookie token (only its hash is stored). */
export async function createSession(
  dataSource: DataSource,
  userId: string,
  workspaceId: string | null,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await dataSource.manager.insert(Session, {
    tokenHash: hashToken(token),
    userId,
    workspaceId,
    expiresAt: new Date(Date.now() + SESSION_LIFETIME_MS),
  });
  // Expired sessions of this user are removed as they are noticed.
  await dataSource.manager.delete(Session, { userId, expiresAt: LessThan(new Date()) });
  return token;
}

export async function findSession(dataSource: DataSource, token: string): Promise<Session | undefined> {
  const session = await dataSource.manager.findOneBy(Session, { tokenHash: hashToken(token) });
  if (!session || session.expiresAt.getTime() <= Date.now()) return undefined;
  return session;
}

export async function setSessionWorkspace(
  dataSource: DataSource,
  token: string,
  workspaceId: string,
): Promise<void> {
  await dataSource.manager.update(Session, { tokenHash: hashToken(token) }, { workspaceId });
}

export async function deleteSession(dataSource: DataSource, token: string): Promise<void> {
  await dataSource.manager.delete(Session, { tokenHash: hashToken(token) });
}

/** Signs the user out everywhere but the session of `keepToken` (after a password change). */
export async function endOtherSessions(
  manager: EntityManager,
  userId: string,
  keepToken: string,
): Promise<void> {
  await manager.delete(Session, { userId, tokenHash: Not(hashToken(keepToken)) });
}
