import type { EntityManager } from 'typeorm';
import type { Actor } from '../identity/actor';
import { loadModel, type RecordModel } from './model.service';

/**
 * Record models kept in memory by workspace and schema revision. Every model change raises the
 * workspace's revision in the same transaction (model-changes.service.ts), so the model read at
 * revision N is the model at N for good: a caller that already holds the current revision (the
 * actor's workspace row, read fresh on every call) gets the model without a query. Other processes
 * need no notice: a change shows as a new revision in the next actor they read.
 */
const MAX_MODELS = 500;
const models = new Map<string, RecordModel>();

const keyOf = (workspaceId: string, revision: number) => `${workspaceId}:${revision}`;

/** The model at `revision`, read once and then kept; a newer model when the workspace moved on. */
export async function modelAtRevision(
  manager: EntityManager,
  workspaceId: string,
  revision: number,
): Promise<RecordModel> {
  const key = keyOf(workspaceId, revision);
  const kept = models.get(key);
  if (kept) {
    // Least recently used goes first: a Map iterates in insertion order.
    models.delete(key);
    models.set(key, kept);
    return kept;
  }
  const model = await loadModel(manager, workspaceId);
  remember(workspaceId, model);
  return model;
}

/** The model of the actor's workspace at the revision their call read. */
export function modelOf(manager: EntityManager, actor: Actor): Promise<RecordModel> {
  return modelAtRevision(manager, actor.workspace.id, actor.workspace.schemaRevision);
}

function remember(workspaceId: string, model: RecordModel): void {
  for (const key of models.keys()) {
    if (key.startsWith(`${workspaceId}:`)) models.delete(key);
  }
  models.set(keyOf(workspaceId, model.schemaRevision), deepFreeze(model));
  if (models.size > MAX_MODELS) models.delete(models.keys().next().value!);
}

/** A kept model is shared by every caller: frozen, so none can change it for the others. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
