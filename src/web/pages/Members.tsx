// Settings → Members (Admin only): who belongs to the workspace, their role and status, and the
// pending invitations. A person joins only by accepting the invitation mailed to their address
// (issue 34): the Admin invites, nobody is added at once.
import { useCallback, useEffect, useState } from 'react';
import { api, errorMessage, type Invitation, type Member, type MemberStatus, type Role } from '../api';
import { ConfirmDialog, DangerButton, ErrorMessage, SubmitButton } from '../components/Dialog';
import { ItemsTable } from '../components/ListParts';
import { InviteMemberDialog, RoleSelect } from '../components/members/InviteMemberDialog';
import { PendingInvitations } from '../components/members/PendingInvitations';
import { PageHeader } from '../components/PageHeader';
import { DateTime } from '../format';
import { useSession, useSessionContext } from '../session';
import { useSubmit } from '../hooks/useSubmit';

const MEMBERS_TABLE = {
  className: 'table',
  testId: 'members-table',
  columns: ['Name', 'Email', 'Role', 'Status', 'Added'],
  actions: true,
};

export function MembersPage() {
  const session = useSession();
  const { refresh } = useSessionContext();
  const [members, setMembers] = useState<Member[]>();
  const [roles, setRoles] = useState<Role[]>([]);
  const [error, setError] = useState<string>();
  const [invitations, setInvitations] = useState<Invitation[]>();
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Member>();
  const updating = useSubmit();
  const revoking = useSubmit();

  const load = useCallback(async () => {
    try {
      const [memberList, roleList, invitationList] = await Promise.all([
        api.members(),
        api.roles(),
        api.invitations(),
      ]);
      setMembers(memberList.data);
      setRoles(roleList.data);
      setInvitations(invitationList.data);
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
        <SubmitButton label="Invite member" onClick={() => setInviting(true)} testId="invite-member" />
      </PageHeader>
      <ErrorMessage message={error ?? updating.error} />
      <ItemsTable items={members} failed={Boolean(error)} table={MEMBERS_TABLE}>
        {(member) => (
          <tr key={member.userId} data-testid="member-row" data-email={member.email}>
            <td data-testid="member-name">
              {member.name}
              {member.userId === session.user.id ? <span className="tag">You</span> : null}
            </td>
            <td data-testid="member-email">{member.email}</td>
            <td>
              <RoleSelect
                roles={roles}
                aria-label={`Role of ${member.email}`}
                value={member.roleId}
                onChange={(roleId) => void update(member, { roleId })}
                testId="member-role"
              />
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
              <DangerButton small label="Remove" onClick={() => setRemoving(member)} testId="member-remove" />
            </td>
          </tr>
        )}
      </ItemsTable>

      <PendingInvitations
        invitations={invitations}
        error={revoking.error}
        onRevoke={(invitation) =>
          void revoking.run(async () => {
            await api.revokeInvitation(invitation.id);
            await load();
          })
        }
      />

      {inviting ? (
        <InviteMemberDialog
          roles={roles}
          onClose={() => setInviting(false)}
          onInvited={() => {
            setInviting(false);
            void load();
          }}
        />
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
