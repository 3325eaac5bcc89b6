// The pending invitations on Settings → Members (src/web/pages/Members.tsx): a person joins only by
// the link mailed to the address (docs/app-api.md, `POST /app/api/invitations`), so until then the Admin
// sees the invitation and may revoke it.
import type { Invitation } from '../../api';
import { DangerButton, ErrorMessage } from '../Dialog';
import { ListTable } from '../ListParts';
import { DateTime } from '../../format';

/** The workspace's pending invitations (not accepted, not expired), each revocable. */
export function PendingInvitations({
  invitations,
  error,
  onRevoke,
}: {
  invitations: Invitation[] | undefined;
  error: string | undefined;
  onRevoke: (invitation: Invitation) => void;
}) {
  if (invitations === undefined) return null;
  return (
    <section data-testid="invitations">
      <h2>Pending invitations</h2>
      <p className="hint">
        An invited person joins only by opening the link mailed to the address (7 days), signed in with that
        address or creating an account by the link. Revoking stops the link at once.
      </p>
      <ErrorMessage message={error} />
      {invitations.length > 0 ? (
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
                <DangerButton
                  small
                  label="Revoke"
                  onClick={() => onRevoke(invitation)}
                  testId="invitation-revoke"
                />
              </td>
            </tr>
          ))}
        </ListTable>
      ) : (
        <p data-testid="invitations-empty">No pending invitations.</p>
      )}
    </section>
  );
}
