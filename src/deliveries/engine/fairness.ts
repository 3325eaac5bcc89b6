import type { Priority } from '@temporalio/common';

/**
 * The Temporal priority of a workspace's workflows: its id as the fairness key, so Temporal's
 * matching dispatches each task queue's backlog round-robin across workspaces (by weight) instead of
 * first come, first served, and rate-limits the slow lane per workspace. Activities and child
 * workflows inherit it from their workflow.
 */
export function workspacePriority(workspaceId: string, weights: Readonly<Record<string, number>>): Priority {
  const weight = weights[workspaceId.toLowerCase()];
  return weight === undefined
    ? { fairnessKey: workspaceId }
    : { fairnessKey: workspaceId, fairnessWeight: weight };
}
