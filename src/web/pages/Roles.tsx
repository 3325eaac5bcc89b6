// Settings → Roles (Admin only): the API & Webhooks row of each role, as the spec's table shows
// it: "Read access" None or All, and Create, Edit, Delete (which count only with Read access All).
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, errorMessage, type Role } from '../api';
import { ErrorMessage } from '../components/Dialog';
import { useSessionContext } from '../session';

const ROLE_NAME_MAX = 100;
type Change = Partial<Pick<Role, 'apiRead' | 'apiCreate' | 'apiEdit' | 'apiDelete'>>;

export function RolesPage() {
  const { refresh } = useSessionContext();
  const [roles, setRoles] = useState<Role[]>();
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState<string>();
  const [name, setName] = useState('');
  const [creating, setCreating] = useState(false);

  const load = useCallback(async () => {
    try {
      setRoles((await api.roles()).data);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    setCreating(true);
    setError(undefined);
    try {
      const role = await api.createRole({ name: trimmed });
      setRoles((list) => [...(list ?? []), role]);
      setName('');
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setCreating(false);
    }
  };

  const update = async (role: Role, change: Change) => {
    setSaving(role.id);
    setError(undefined);
    // Shown at once; the server's answer (or, on a refusal, the saved state) replaces it.
    setRoles((list) => list?.map((item) => (item.id === role.id ? { ...item, ...change } : item)));
    try {
      const updated = await api.updateRole(role.id, change);
      setRoles((list) => list?.map((item) => (item.id === updated.id ? updated : item)));
      // The caller's own role may be the one changed (not for Admin, which is built-in).
      await refresh();
    } catch (failure) {
      setRoles((list) => list?.map((item) => (item.id === role.id ? role : item)));
      setError(errorMessage(failure));
    } finally {
      setSaving(undefined);
    }
  };

  return (
    <section data-testid="roles-page">
      <div className="page-header">
        <div>
          <h1>Roles</h1>
          <p className="lead">
            The API &amp; Webhooks row of each role. Read access None hides API keys and webhooks; Create,
            Edit and Delete add to Read access All. Built-in roles cannot be changed.
          </p>
        </div>
      </div>
      <form className="inline-form" onSubmit={(event) => void create(event)} data-testid="create-role-form">
        <label>
          <span className="visually-hidden">New role name</span>
          <input
            required
            maxLength={ROLE_NAME_MAX}
            placeholder="New role name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            data-testid="role-name-input"
          />
        </label>
        <button type="submit" className="button button-primary" disabled={creating} data-testid="create-role">
          {creating ? 'Creating…' : 'Create role'}
        </button>
      </form>
      <ErrorMessage message={error} />
      {roles === undefined ? (
        error ? null : (
          <p className="muted">Loading…</p>
        )
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="roles-table">
            <thead>
              <tr>
                <th rowSpan={2}>Role</th>
                <th rowSpan={2}>Members</th>
                <th colSpan={4} className="group-header">
                  API &amp; Webhooks
                </th>
              </tr>
              <tr>
                <th>Read access</th>
                <th>Create</th>
                <th>Edit</th>
                <th>Delete</th>
              </tr>
            </thead>
            <tbody>
              {roles.map((role) => (
                <RoleRow
                  key={role.id}
                  role={role}
                  saving={saving === role.id}
                  onChange={(c) => void update(role, c)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function RoleRow({
  role,
  saving,
  onChange,
}: {
  role: Role;
  saving: boolean;
  onChange: (change: Change) => void;
}) {
  const readOnly = role.builtin !== null || role.isAdmin;
  const all = role.isAdmin || role.apiRead === 'all';
  const box = (field: 'apiCreate' | 'apiEdit' | 'apiDelete', label: string) => (
    <td>
      <input
        type="checkbox"
        aria-label={`${label} for ${role.name}`}
        checked={role.isAdmin || (all && role[field])}
        disabled={readOnly || saving || !all}
        onChange={(event) => onChange({ [field]: event.target.checked })}
        data-testid={`role-${field.slice(3).toLowerCase()}`}
      />
    </td>
  );
  return (
    <tr data-testid="role-row" data-role-name={role.name} data-builtin={role.builtin ?? ''}>
      <td>
        <span data-testid="role-name">{role.name}</span>
        {role.builtin ? <span className="tag">Built-in</span> : null}
      </td>
      <td>{role.memberCount}</td>
      <td>
        {readOnly ? (
          <span data-testid="role-read-text">{all ? 'All' : 'None'}</span>
        ) : (
          <select
            aria-label={`Read access for ${role.name}`}
            value={role.apiRead}
            disabled={saving}
            // Back to None clears the boxes: they mean nothing without Read access All.
            onChange={(event) =>
              onChange(
                event.target.value === 'all'
                  ? { apiRead: 'all' }
                  : { apiRead: 'none', apiCreate: false, apiEdit: false, apiDelete: false },
              )
            }
            data-testid="role-read"
          >
            <option value="none">None</option>
            <option value="all">All</option>
          </select>
        )}
      </td>
      {box('apiCreate', 'Create')}
      {box('apiEdit', 'Edit')}
      {box('apiDelete', 'Delete')}
    </tr>
  );
}
