// Settings → Members, pending invitations (issue 34): invite an address with a role; the person
// joins only by accepting the mailed link. Revoking stops the link at once.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, errorMessage, type Invitation, type Role } from '../api';
import { ErrorMessage, SubmitButton } from '../components/Dialog';
import { ListTable } from '../components/ListParts';
import { DateTime } from '../format';
import { useSubmit } from '../hooks/useSubmit';

export function InvitationsSection({ roles }: { roles: Role[] }) {
  const [invitations, setInvitations] = useState<Invitation[]>();
  const [loadError, setLoadError] = useState<string>();
  const defaultRole = roles.find((role) => role.builtin === 'member') ?? roles.find((role) => !role.isAdmin);
  const [email, setEmail] = useState('');
  const [roleId, setRoleId] = useState('');
  const { busy, error, run } = useSubmit();

  const load = useCallback(async () => {
    try {
      setInvitations((await api.invitations()).data);
    } catch (failure) {
      setLoadError(errorMessage(failure));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await api.invite({ email: email.trim(), roleId: roleId || defaultRole?.id || roles[0]?.id || '' });
      setEmail('');
      await load();
    });
  };

  return (
    <section data-testid="invitations">
      <h2>Invitations</h2>
      <p className="hint">
        An invited person joins only by opening the link mailed to the address (7 days), signed in with that
        address or creating an account by the link.
      </p>
      <form className="form form-inline" onSubmit={submit} data-testid="invite-form">
        <label>
          Email
          <input
            required
            type="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            data-testid="invite-email"
          />
        </label>
        <label>
          Role
          <select
            value={roleId || defaultRole?.id || ''}
            onChange={(event) => setRoleId(event.target.value)}
            data-testid="invite-role"
          >
            {roles.map((role) => (
              <option key={role.id} value={role.id}>
                {role.name}
              </option>
            ))}
          </select>
        </label>
        <SubmitButton label="Invite" busyLabel="Inviting…" busy={busy} testId="invite-submit" />
      </form>
      <ErrorMessage message={error ?? loadError} />
      {invitations && invitations.length > 0 ? (
        <ListTable
          className="table"
          testId="invitations-table"
          columns={['Email', 'Role', 'Invited by', 'Expires']}
          actions
        >
          {invitations.map((invitation) => (
            <tr key={invitation.id} data-testid="invitation-row" data-email={invitation.email}>
              <td>{invitation.email}</td>
              <td>{invitation.roleName}</td>
              <td>{invitation.invitedBy ?? '—'}</td>
              <td>
                <DateTime value={invitation.expiresAt} />
              </td>
              <td className="cell-actions">
                <button
                  type="button"
                  className="button button-small button-danger-outline"
                  data-testid="invitation-revoke"
                  onClick={() =>
                    void run(async () => {
                      await api.revokeInvitation(invitation.id);
                      await load();
                    })
                  }
                >
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </ListTable>
      ) : invitations ? (
        <p data-testid="invitations-empty">No pending invitations.</p>
      ) : null}
    </section>
  );
}

/** `/settings/invitations` (Admin only): the workspace's pending invitations and the invite form. */
export function InvitationsPage() {
  const [roles, setRoles] = useState<Role[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    api.roles().then(
      (list) => setRoles(list.data),
      (failure: unknown) => setError(errorMessage(failure)),
    );
  }, []);
  return (
    <section data-testid="invitations-page">
      <ErrorMessage message={error} />
      {roles ? <InvitationsSection roles={roles} /> : null}
    </section>
  );
}
