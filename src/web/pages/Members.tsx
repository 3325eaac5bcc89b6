// Settings → Members (Admin only): who belongs to the workspace, their role and status.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, errorMessage, type Member, type MemberStatus, type Role } from '../api';
import { ConfirmDialog, Dialog, ErrorMessage } from '../components/Dialog';
import { DateTime } from '../format';
import { useSession, useSessionContext } from '../session';

export function MembersPage() {
  const session = useSession();
  const { refresh } = useSessionContext();
  const [members, setMembers] = useState<Member[]>();
  const [roles, setRoles] = useState<Role[]>([]);
  const [error, setError] = useState<string>();
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState<{ member: Member; temporaryPassword: string }>();
  const [removing, setRemoving] = useState<Member>();

  const load = useCallback(async () => {
    try {
      const [memberList, roleList] = await Promise.all([api.members(), api.roles()]);
      setMembers(memberList.data);
      setRoles(roleList.data);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const update = async (member: Member, change: { roleId?: string; status?: MemberStatus }) => {
    setError(undefined);
    // Shown at once; the server's answer (or, on a refusal such as lastAdmin, the saved state) replaces it.
    setMembers((list) =>
      list?.map((item) => (item.userId === member.userId ? { ...item, ...change } : item)),
    );
    try {
      const updated = await api.updateMember(member.userId, change);
      setMembers((list) => list?.map((item) => (item.userId === updated.userId ? updated : item)));
      // A change of one's own role or status changes what the app may show.
      if (member.userId === session.user.id) await refresh();
    } catch (failure) {
      setMembers((list) => list?.map((item) => (item.userId === member.userId ? member : item)));
      setError(errorMessage(failure));
    }
  };

  return (
    <section data-testid="members-page">
      <div className="page-header">
        <div>
          <h1>Members</h1>
          <p className="lead">People in {session.workspace.name}, their role and status.</p>
        </div>
        <button
          type="button"
          className="button button-primary"
          onClick={() => setAdding(true)}
          data-testid="add-member"
        >
          Add member
        </button>
      </div>
      <ErrorMessage message={error} />
      {members === undefined ? (
        error ? null : (
          <p className="muted">Loading…</p>
        )
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="members-table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Email</th>
                <th>Role</th>
                <th>Status</th>
                <th>Added</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {members.map((member) => (
                <tr key={member.userId} data-testid="member-row" data-email={member.email}>
                  <td data-testid="member-name">
                    {member.name}
                    {member.userId === session.user.id ? <span className="tag">You</span> : null}
                  </td>
                  <td data-testid="member-email">{member.email}</td>
                  <td>
                    <select
                      aria-label={`Role of ${member.email}`}
                      value={member.roleId}
                      onChange={(event) => void update(member, { roleId: event.target.value })}
                      data-testid="member-role"
                    >
                      {roles.map((role) => (
                        <option key={role.id} value={role.id}>
                          {role.name}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>
                    <select
                      aria-label={`Status of ${member.email}`}
                      value={member.status}
                      onChange={(event) =>
                        void update(member, { status: event.target.value as MemberStatus })
                      }
                      data-testid="member-status"
                    >
                      <option value="active">Active</option>
                      <option value="inactive">Inactive</option>
                    </select>
                  </td>
                  <td>
                    <DateTime value={member.createdAt} />
                  </td>
                  <td className="cell-actions">
                    <button
                      type="button"
                      className="button button-small button-danger-outline"
                      onClick={() => setRemoving(member)}
                      data-testid="member-remove"
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {adding ? (
        <AddMemberDialog
          roles={roles}
          onClose={() => setAdding(false)}
          onAdded={(result) => {
            setAdding(false);
            if (result.temporaryPassword) {
              setAdded({ member: result.member, temporaryPassword: result.temporaryPassword });
            }
            void load();
          }}
        />
      ) : null}
      {added ? (
        <Dialog
          title="Member added"
          onClose={() => setAdded(undefined)}
          testId="temporary-password-dialog"
          actions={
            <button type="button" className="button button-primary" onClick={() => setAdded(undefined)}>
              Done
            </button>
          }
        >
          <p>
            An account was created for <strong>{added.member.email}</strong>. Give them this one-time
            password; it is shown only once.
          </p>
          <code className="key-value" data-testid="temporary-password">
            {added.temporaryPassword}
          </code>
        </Dialog>
      ) : null}
      {removing ? (
        <RemoveMemberDialog
          member={removing}
          onClose={() => setRemoving(undefined)}
          onRemoved={() => {
            setRemoving(undefined);
            void load();
          }}
        />
      ) : null}
    </section>
  );
}

function AddMemberDialog({
  roles,
  onClose,
  onAdded,
}: {
  roles: Role[];
  onClose: () => void;
  onAdded: (result: { member: Member; temporaryPassword?: string }) => void;
}) {
  const defaultRole = roles.find((role) => role.builtin === 'member') ?? roles.find((role) => !role.isAdmin);
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [roleId, setRoleId] = useState(defaultRole?.id ?? roles[0]?.id ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const trimmedName = name.trim();
      onAdded(
        await api.addMember({ email: email.trim(), roleId, ...(trimmedName ? { name: trimmedName } : {}) }),
      );
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };

  return (
    <Dialog title="Add member" onClose={onClose} testId="add-member-dialog">
      <form className="form" onSubmit={(event) => void submit(event)}>
        <label>
          Email
          <input
            required
            type="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            data-testid="member-email-input"
          />
        </label>
        <label>
          Name <span className="muted">(optional)</span>
          <input
            maxLength={255}
            value={name}
            onChange={(event) => setName(event.target.value)}
            data-testid="member-name-input"
          />
        </label>
        <label>
          Role
          <select
            required
            value={roleId}
            onChange={(event) => setRoleId(event.target.value)}
            data-testid="member-role-input"
          >
            {roles.map((role) => (
              <option key={role.id} value={role.id}>
                {role.name}
              </option>
            ))}
          </select>
        </label>
        <p className="hint">
          Someone without an account gets one, with a one-time password shown after adding them.
        </p>
        <ErrorMessage message={error} />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="button button-primary"
            disabled={busy}
            data-testid="member-add-submit"
          >
            {busy ? 'Adding…' : 'Add member'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function RemoveMemberDialog({
  member,
  onClose,
  onRemoved,
}: {
  member: Member;
  onClose: () => void;
  onRemoved: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  return (
    <ConfirmDialog
      title="Remove member"
      message={
        <p>
          Remove <strong>{member.name || member.email}</strong> from this workspace? Their API keys in this
          workspace stop working at once.
        </p>
      }
      confirmLabel="Remove"
      busy={busy}
      error={error}
      onCancel={onClose}
      onConfirm={() => {
        setBusy(true);
        setError(undefined);
        api
          .removeMember(member.userId)
          .then(onRemoved)
          .catch((failure: unknown) => {
            setError(errorMessage(failure));
            setBusy(false);
          });
      }}
    />
  );
}
