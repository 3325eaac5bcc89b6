import type { Config } from '../../config';
import type { Actor } from '../actor';
import type { SessionView, WorkspaceView } from '../identity-view';
import type { Workspace } from '../workspace.entity';

export type { SessionView };

const workspaceView = ({ id, name, planState }: Workspace): WorkspaceView => ({ id, name, planState });

/** What the web app learns about the signed-in person: never a password hash. */
export function sessionView(
  actor: Actor,
  workspaces: Workspace[],
  config: Pick<Config, 'DEPLOYMENT' | 'PUBLIC_URL'>,
): SessionView {
  const { id, name, builtin, isAdmin, apiRead, apiCreate, apiEdit, apiDelete } = actor.role;
  return {
    user: { id: actor.user.id, email: actor.user.email, name: actor.user.name },
    emailVerified: actor.user.emailVerifiedAt !== null,
    workspace: workspaceView(actor.workspace),
    workspaces: workspaces.map(workspaceView),
    member: { status: actor.member.status },
    role: { id, name, builtin, isAdmin, apiRead, apiCreate, apiEdit, apiDelete },
    permissions: actor.permissions,
    onboardingPending: actor.permissions.manageWorkspace && actor.workspace.onboardedAt === null,
    deployment: config.DEPLOYMENT,
    mcpUrl: `${config.PUBLIC_URL}/api/v1/mcp`,
  };
}
