import type { MigrationInterface } from 'typeorm';
import { identityHooks } from '../../src/app/services';
import { DeliveriesService, type DeliveryListQuery } from '../../src/deliveries/log/deliveries.service';
import { loadActor, type Actor } from '../../src/identity/actor';
import { signUp } from '../../src/identity/sign-in/accounts.service';
import { createLogger } from '../../src/logger';
import type { TestDatabase } from './database';

/** The delivery log's service on a test database, without Temporal (resends start nothing). */
export const logService = (db: TestDatabase) =>
  new DeliveriesService(
    db.dataSource,
    { startResend: async () => undefined },
    () => null,
    createLogger('silent'),
  );

/** A new account's actor in a workspace of its own. */
export async function newActor(db: TestDatabase, email: string, workspaceName: string): Promise<Actor> {
  const { user, workspace } = await signUp(
    db.dataSource,
    { name: email, email, password: 'plum kettle orbit 42', workspaceName },
    identityHooks,
  );
  return (await loadActor(db.dataSource.manager, workspace.id, user.id))!;
}

/** Runs one migration's up or down on its own query runner. */
export async function migrateOne(db: TestDatabase, migration: MigrationInterface, direction: 'up' | 'down') {
  const runner = db.dataSource.createQueryRunner();
  try {
    await migration[direction](runner);
  } finally {
    await runner.release();
  }
}

/** Every page of the log under the filters (ids in order), and the total of the first page. */
export async function everyPage(
  service: DeliveriesService,
  actor: Actor,
  query: Omit<DeliveryListQuery, 'limit'>,
  limit = 200,
): Promise<{ ids: string[]; total: unknown }> {
  const ids: string[] = [];
  let after: DeliveryListQuery['after'];
  let total: unknown;
  do {
    const page = await service.list(actor, { ...query, limit, after });
    total ??= page.total;
    ids.push(...page.data.map((delivery) => delivery.id));
    after = page.next ?? undefined;
  } while (after);
  return { ids, total };
}
