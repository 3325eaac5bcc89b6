// Inviting a person to the workspace from Settings → Members (src/web/pages/Members.tsx), and the
// choice of role that the members' table shares.
import { useState, type FormEvent } from 'react';
import { api, type Role } from '../../api';
import { Dialog, DialogActions, ErrorMessage } from '../Dialog';
import { useSubmit } from '../../hooks/useSubmit';

/** The workspace's roles to choose from, in a member's row and in an invitation. */
export function RoleSelect({
  roles,
  value,
  onChange,
  testId,
  ...select
}: {
  roles: Role[];
  value: string;
  onChange: (roleId: string) => void;
  testId: string;
  'aria-label'?: string;
  required?: boolean;
}) {
  return (
    <select {...select} value={value} onChange={(event) => onChange(event.target.value)} data-testid={testId}>
      {roles.map((role) => (
        <option key={role.id} value={role.id}>
          {role.name}
        </option>
      ))}
    </select>
  );
}

export function InviteMemberDialog({
  roles,
  onClose,
  onInvited,
}: {
  roles: Role[];
  onClose: () => void;
  onInvited: () => void;
}) {
  const defaultRole = roles.find((role) => role.builtin === 'member') ?? roles.find((role) => !role.isAdmin);
  const [email, setEmail] = useState('');
  const [roleId, setRoleId] = useState(defaultRole?.id ?? roles[0]?.id ?? '');
  const { busy, error, run } = useSubmit();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await api.invite({ email: email.trim(), roleId });
      onInvited();
    });
  };

  return (
    <Dialog title="Invite member" onClose={onClose} testId="invite-member-dialog">
      <form className="form" onSubmit={submit}>
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
          <RoleSelect required roles={roles} value={roleId} onChange={setRoleId} testId="invite-role" />
        </label>
        <p className="hint">
          The person gets an e-mail with a link and joins when they accept it: signed in with this address, or
          by creating an account with a name and password of their own.
        </p>
        <ErrorMessage message={error} />
        <DialogActions
          onCancel={onClose}
          label="Send invitation"
          busyLabel="Inviting…"
          busy={busy}
          testId="invite-submit"
        />
      </form>
    </Dialog>
  );
}
