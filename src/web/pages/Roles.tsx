// Settings → Roles (Admin only): the API & Webhooks row of each role, as the spec's table shows
// it: "Read access" None or All, and Create, Edit, Delete (which count only with Read access All);
// and each role's record access (app-api.md, "Record access on roles"): a default for every type,
// per-type overrides and restricted fields. Built-in roles are read-only.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import {
  api,
  errorMessage,
  type RecordReadAccess,
  type RecordType,
  type Role,
  type RoleRecordAccess,
} from '../api';
import { Dialog, DialogActions, ErrorMessage, SubmitButton } from '../components/Dialog';
import { Loading } from '../components/ListParts';
import { PageHeader } from '../components/PageHeader';
import { useSessionContext } from '../session';
import { useSubmit } from '../hooks/useSubmit';

const ROLE_NAME_MAX = 100;
type Change = Partial<Pick<Role, 'apiRead' | 'apiCreate' | 'apiEdit' | 'apiDelete'>>;

/** Every record type with its fields (an Admin reads them all). */
async function loadModel(): Promise<RecordType[]> {
  const { types } = await api.discoverModel();
  return Promise.all(types.map(async (type) => (await api.readType(type.id)).type));
}

export function RolesPage() {
  const { refresh } = useSessionContext();
  const [roles, setRoles] = useState<Role[]>();
  const [types, setTypes] = useState<RecordType[]>();
  const [loadError, setLoadError] = useState<string>();
  const [savingId, setSavingId] = useState<string>();
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<Role>();
  const creating = useSubmit();
  const updating = useSubmit();

  const load = useCallback(async () => {
    try {
      const [roleList, model] = await Promise.all([api.roles(), loadModel()]);
      setRoles(roleList.data);
      setTypes(model);
    } catch (failure) {
      setLoadError(errorMessage(failure));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const replace = (role: Role) =>
    setRoles((list) => list?.map((item) => (item.id === role.id ? role : item)));

  const create = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    void creating.run(async () => {
      const role = await api.createRole({ name: trimmed });
      setRoles((list) => [...(list ?? []), role]);
      setName('');
    });
  };

  const update = async (role: Role, change: Change) => {
    setSavingId(role.id);
    // Shown at once; the server's answer (or, on a refusal, the saved state) replaces it.
    replace({ ...role, ...change });
    const saved = await updating.run(async () => {
      replace(await api.updateRole(role.id, change));
      // The caller's own role may be the one changed (not for Admin, which is built-in).
      await refresh();
    });
    if (!saved) replace(role);
    setSavingId(undefined);
  };

  const error = loadError ?? creating.error ?? updating.error;

  return (
    <section data-testid="roles-page">
      <PageHeader
        title="Roles"
        lead={
          <>
            The API &amp; Webhooks row of each role. Read access None hides API keys and webhooks; Create,
            Edit and Delete add to Read access All. Records: which record types each role reads, and which
            fields it cannot see. Built-in roles cannot be changed.
          </>
        }
      />
      <form className="inline-form" onSubmit={create} data-testid="create-role-form">
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
        <SubmitButton label="Create role" busyLabel="Creating…" busy={creating.busy} testId="create-role" />
      </form>
      <ErrorMessage message={error} />
      {roles === undefined ? (
        <Loading failed={Boolean(error)} />
      ) : (
        <div className="table-wrap">
          {/* Cards on a phone, each value labelled by hand: the two heading rows are no single column list. */}
          <table className="table table-cards" data-testid="roles-table">
            <thead>
              <tr>
                <th rowSpan={2}>Role</th>
                <th rowSpan={2}>Members</th>
                <th colSpan={4} className="group-header">
                  API &amp; Webhooks
                </th>
                <th rowSpan={2}>Records</th>
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
                  types={types ?? []}
                  saving={savingId === role.id}
                  onChange={(change) => void update(role, change)}
                  onEditRecords={() => setEditing(role)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing ? (
        <RecordAccessDialog
          role={editing}
          types={types ?? []}
          onClose={() => setEditing(undefined)}
          onSaved={(role) => {
            replace(role);
            setEditing(undefined);
          }}
        />
      ) : null}
    </section>
  );
}

function RoleRow({
  role,
  types,
  saving,
  onChange,
  onEditRecords,
}: {
  role: Role;
  types: RecordType[];
  saving: boolean;
  onChange: (change: Change) => void;
  onEditRecords: () => void;
}) {
  const readOnly = role.builtin !== null || role.isAdmin;
  const all = role.isAdmin || role.apiRead === 'all';
  const box = (field: 'apiCreate' | 'apiEdit' | 'apiDelete', label: string) => (
    <td data-label={`API ${label.toLowerCase()}`}>
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
      <td data-label="Members">{role.memberCount}</td>
      <td data-label="API read">
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
      <td data-label="Records">
        <div className="records-cell">
          <span data-testid="role-records-summary">{recordAccessSummary(role, types)}</span>
          <button
            type="button"
            className="button button-small"
            onClick={onEditRecords}
            aria-label={`${readOnly ? 'View' : 'Edit'} record access of ${role.name}`}
            data-testid="role-records-edit"
          >
            {readOnly ? 'View' : 'Edit'}
          </button>
        </div>
      </td>
    </tr>
  );
}

/** e.g. "All types except Deals · 1 restricted field". */
function recordAccessSummary(role: Role, types: RecordType[]): string {
  if (role.isAdmin) return 'All types, every field';
  const exceptions = types.filter((type) => {
    const access = role.recordAccess[type.id];
    return access !== undefined && access !== role.defaultRecordAccess;
  });
  const names = exceptions.map((type) => type.name).join(', ');
  let text = role.defaultRecordAccess === 'all' ? 'All types' : 'No types';
  if (exceptions.length) text = role.defaultRecordAccess === 'all' ? `All except ${names}` : `Only ${names}`;
  const known = new Set(types.flatMap((type) => type.fields.map((field) => field.id)));
  const restricted = role.restrictedFieldIds.filter((id) => known.has(id)).length;
  if (restricted) text += ` · ${restricted} restricted field${restricted === 1 ? '' : 's'}`;
  return text;
}

type Override = RecordReadAccess | 'default';

/** The Records section of a role: default access, per-type overrides, restricted fields. */
function RecordAccessDialog({
  role,
  types,
  onClose,
  onSaved,
}: {
  role: Role;
  types: RecordType[];
  onClose: () => void;
  onSaved: (role: Role) => void;
}) {
  const readOnly = role.builtin !== null || role.isAdmin;
  const [defaultAccess, setDefaultAccess] = useState<RecordReadAccess>(role.defaultRecordAccess);
  const [overrides, setOverrides] = useState<Record<string, Override>>(() =>
    Object.fromEntries(types.map((type) => [type.id, role.recordAccess[type.id] ?? 'default'])),
  );
  const [restricted, setRestricted] = useState(() => new Set(role.restrictedFieldIds));
  const { busy, error, run } = useSubmit();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Entries for types this page does not know (e.g. deleted since) are kept as they are.
    const recordAccess = { ...role.recordAccess };
    for (const type of types) {
      const override = overrides[type.id] ?? 'default';
      if (override === 'default') delete recordAccess[type.id];
      else recordAccess[type.id] = override;
    }
    const change: RoleRecordAccess = {
      defaultRecordAccess: defaultAccess,
      recordAccess,
      restrictedFieldIds: [...restricted],
    };
    void run(async () => onSaved(await api.updateRole(role.id, change)));
  };

  const toggleField = (fieldId: string, on: boolean) =>
    setRestricted((set) => {
      const next = new Set(set);
      if (on) next.add(fieldId);
      else next.delete(fieldId);
      return next;
    });

  return (
    <Dialog title={`Record access: ${role.name}`} onClose={onClose} testId="record-access-dialog" wide>
      <form className="form" onSubmit={submit}>
        <h3>Records</h3>
        {role.isAdmin ? (
          <p className="notice" data-testid="record-access-admin">
            Admins read every record type and every field.
          </p>
        ) : (
          <>
            {readOnly ? <p className="muted">Built-in roles cannot be changed.</p> : null}
            <label className="inline-field">
              Default access
              <select
                value={defaultAccess}
                disabled={readOnly}
                onChange={(event) => setDefaultAccess(event.target.value as RecordReadAccess)}
                data-testid="role-default-record-access"
              >
                <option value="none">None</option>
                <option value="all">All</option>
              </select>
              <span className="hint">For every type set to Default below, and types added later.</span>
            </label>
            <div className="access-types">
              {types.map((type) => {
                const override = overrides[type.id] ?? 'default';
                const effective = override === 'default' ? defaultAccess : override;
                return (
                  <fieldset
                    key={type.id}
                    className="access-type"
                    data-testid="role-type"
                    data-type-name={type.name}
                  >
                    <legend className="access-type-header">
                      <span>{type.name}</span>
                      <select
                        aria-label={`Access to ${type.name}`}
                        value={override}
                        disabled={readOnly}
                        onChange={(event) =>
                          setOverrides((all) => ({ ...all, [type.id]: event.target.value as Override }))
                        }
                        data-testid="role-type-access"
                      >
                        <option value="default">Default ({defaultAccess === 'all' ? 'All' : 'None'})</option>
                        <option value="none">None</option>
                        <option value="all">All</option>
                      </select>
                    </legend>
                    <div className="access-fields" aria-label={`Restricted fields of ${type.name}`}>
                      <span className="hint">
                        Restricted fields{effective === 'none' ? ' (type not read)' : ''}:
                      </span>
                      {type.fields.map((field) => (
                        <label key={field.id} className="inline">
                          <input
                            type="checkbox"
                            checked={restricted.has(field.id)}
                            disabled={readOnly}
                            onChange={(event) => toggleField(field.id, event.target.checked)}
                            data-testid="role-restricted-field"
                            data-field-name={field.name}
                          />
                          {field.name}
                        </label>
                      ))}
                    </div>
                  </fieldset>
                );
              })}
            </div>
          </>
        )}
        <ErrorMessage message={error} />
        {readOnly ? (
          <DialogActions label="Close" onClick={onClose} testId="record-access-close" />
        ) : (
          <DialogActions
            onCancel={onClose}
            label="Save"
            busyLabel="Saving…"
            busy={busy}
            testId="record-access-save"
          />
        )}
      </form>
    </Dialog>
  );
}
