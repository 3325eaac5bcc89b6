// Settings → Account, for everyone signed in: who they are, their password, their workspaces.
import { ChangePasswordForm } from '../components/ChangePasswordForm';
import { CreateWorkspaceForm } from '../components/CreateWorkspaceForm';
import { PageHeader } from '../components/PageHeader';
import { useSession } from '../session';

export function AccountPage() {
  const session = useSession();
  return (
    <section data-testid="account-page">
      <PageHeader
        title="Account"
        lead={
          <>
            Signed in as <strong>{session.user.name}</strong> ({session.user.email}).
          </>
        }
      />
      <div className="panel">
        <h2>Change password</h2>
        <ChangePasswordForm />
      </div>
      <div className="panel">
        <h2>Workspaces</h2>
        <ul className="link-list" data-testid="account-workspaces">
          {session.workspaces.map((workspace) => (
            <li key={workspace.id} data-testid="account-workspace">
              {workspace.name}
              {workspace.id === session.workspace.id ? <span className="tag">Current</span> : null}
            </li>
          ))}
        </ul>
        <h3 className="section-title">Create another workspace</h3>
        <CreateWorkspaceForm />
      </div>
    </section>
  );
}
