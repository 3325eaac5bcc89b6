// Settings → Members (Admin only): who belongs to the workspace, their role and status.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, errorMessage, type Member, type MemberStatus, type Role } from '../api';
import { ConfirmDialog, Dialog, DialogActions, ErrorMessage } from '../components/Dialog';
import { ListTable, Loading } from '../components/ListParts';
import { PageHeader } from '../components/PageHeader';
import { DateTime } from '../format';
import { useSession, useSessionContext } from '../session';
import { useSubmit } from '../hooks/useSubmit';

export function MembersPage() {
  const session = useSession();
  const { refresh } = useSessionContext();
  const [members, setMembers] = useState<Member[]>();
  const [roles, setRoles] = useState<Role[]>([]);
  const [error, setError] = useState<string>();
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState<{ member: Member; temporaryPassword: string }>();
  const [removing, setRemoving] = useState<Member>();
  const updating = useSubmit();

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
    // Shown at once; the server's answer (or, on a refusal such as lastAdmin, the saved state) replaces it.
    setMembers((list) =>
      list?.map((item) => (item.userId === member.userId ? { ...item, ...change } : item)),
    );
    const saved = await updating.run(async () => {
      const updated = await api.updateMember(member.userId, change);
      setMembers((list) => list?.map((item) => (item.userId === updated.userId ? updated : item)));
      // A change of one's own role or status changes what the app may show.
      if (member.userId === session.user.id) await refresh();
    });
    if (!saved) setMembers((list) => list?.map((item) => (item.userId === member.userId ? member : item)));
  };

  return (
    <section data-testid="members-page">
      <PageHeader title="Members" lead={<>People in {session.workspace.name}, their role and status.</>}>
        <button
          type="button"
          className="button button-primary"
          onClick={() => setAdding(true)}
          data-testid="add-member"
        >
          Add member
        </button>
      </PageHeader>
      <ErrorMessage message={error ?? updating.error} />
      {members === undefined ? (
        <Loading failed={Boolean(error)} />
      ) : (
        <ListTable
          className="table"
          testId="members-table"
          columns={['Name', 'Email', 'Role', 'Status', 'Added']}
          actions
        >
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
                  onChange={(event) => void update(member, { status: event.target.value as MemberStatus })}
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
        </ListTable>
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
          actions={<DialogActions label="Done" onClick={() => setAdded(undefined)} />}
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
  const { busy, error, run } = useSubmit();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmedName = name.trim();
    void run(async () =>
      onAdded(
        await api.addMember({ email: email.trim(), roleId, ...(trimmedName ? { name: trimmedName } : {}) }),
      ),
    );
  };

  return (
    <Dialog title="Add member" onClose={onClose} testId="add-member-dialog">
      <form className="form" onSubmit={submit}>
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
        <DialogActions
          onCancel={onClose}
          label="Add member"
          busyLabel="Adding…"
          busy={busy}
          testId="member-add-submit"
        />
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
      action={() => api.removeMember(member.userId)}
      onDone={onRemoved}
      onCancel={onClose}
    />
  );
}
