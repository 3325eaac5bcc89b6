import type { Config } from '../config';
import type { Actor } from './actor';
import type { RoleView } from './roles.service';
import type { Workspace } from './workspace.entity';
import type { ApiPermissions } from './permissions';

export interface SessionView {
  user: { id: string; email: string; name: string };
  workspace: WorkspaceView;
  workspaces: WorkspaceView[];
  member: { status: Actor['member']['status'] };
  role: Pick<
    RoleView,
    'id' | 'name' | 'builtin' | 'isAdmin' | 'apiRead' | 'apiCreate' | 'apiEdit' | 'apiDelete'
  >;
  permissions: ApiPermissions;
  onboardingPending: boolean;
  deployment: Config['DEPLOYMENT'];
  mcpUrl: string;
}

type WorkspaceView = Pick<Workspace, 'id' | 'name' | 'planState'>;

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
