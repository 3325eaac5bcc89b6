// Settings → API keys: the caller's own keys of the current workspace (docs/api.md#limits and
// docs/api.md#permissions). Add a standard key or a quick connection; each key is a card with Delete.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  addDays,
  API_KEY_NAME_MAX,
  expiryDateRange,
  zonedDate,
} from '../../shared/credentials/api-key.rules';
import { api, type ApiKey, type CreatedKey } from '../api';
import { CardList, Facts } from '../components/CardList';
import { CreatedKeyDialog } from '../components/CreatedKeyDialog';
import { ConfirmDialog, DangerButton, Dialog, DialogActions, ErrorMessage } from '../components/Dialog';
import { PageHeader } from '../components/PageHeader';
import { RequiredField } from '../components/RequiredField';
import { QuickConnections } from '../components/QuickConnections';
import { DateTime } from '../format';
import { useSession } from '../session';
import { useLoaded } from '../hooks/useLoaded';
import { useSubmit } from '../hooks/useSubmit';

const EXPIRY_DEFAULT_DAYS = 90;

const readApiKeys = async () => (await api.apiKeys()).data;
const NO_KEYS = { text: 'You have no API keys in this workspace yet.', testId: 'api-keys-empty' };

type Open = 'none' | 'menu' | 'standard' | 'quick';

export function ApiKeysPage() {
  const session = useSession();
  const { permissions } = session;
  const inactive = session.member.status === 'inactive';
  const planMissing = session.deployment === 'cloud' && session.workspace.planState === 'none';
  const canCreate = permissions.apiCreate && !inactive && !planMissing;
  const canDelete = permissions.apiDelete && !inactive;

  const keys = useLoaded(readApiKeys);
  const load = keys.reload;
  const [open, setOpen] = useState<Open>('none');
  const [created, setCreated] = useState<CreatedKey>();
  const [deleting, setDeleting] = useState<ApiKey>();

  const onCreated = (key: CreatedKey) => {
    setOpen('none');
    setCreated(key);
    void load();
  };

  return (
    <section data-testid="api-keys-page">
      <PageHeader
        title="API keys"
        lead={
          <>
            Keys let MCP and REST clients act as you in <strong>{session.workspace.name}</strong>, with your
            role&rsquo;s permissions. Only you see your keys.
          </>
        }
      >
        {canCreate ? <AddMenu open={open} setOpen={setOpen} /> : null}
      </PageHeader>

      {inactive ? (
        <p className="notice notice-warning" data-testid="inactive-notice">
          Your membership of this workspace is inactive: you cannot manage API keys.
        </p>
      ) : null}
      {planMissing && permissions.apiCreate && !inactive ? (
        <p className="notice notice-warning" data-testid="plan-notice">
          Choose a plan for this workspace to create API keys.
        </p>
      ) : null}

      <CardList list={keys} empty={NO_KEYS} testId="api-key-list">
        {(key) => (
          <KeyCard key={key.id} apiKey={key} canDelete={canDelete} onDelete={() => setDeleting(key)} />
        )}
      </CardList>

      {open === 'standard' ? (
        <StandardKeyDialog onClose={() => setOpen('none')} onCreated={onCreated} />
      ) : null}
      {open === 'quick' ? (
        <Dialog title="Quick connections" onClose={() => setOpen('none')} testId="quick-dialog" wide>
          <p className="muted">
            A key-based connection creates a key named after the tool that expires in exactly 365 days.
          </p>
          <QuickConnections canCreate={canCreate} onCreated={onCreated} />
        </Dialog>
      ) : null}
      {created ? <CreatedKeyDialog created={created} onClose={() => setCreated(undefined)} /> : null}
      {deleting ? (
        <DeleteKeyDialog
          apiKey={deleting}
          onClose={() => setDeleting(undefined)}
          onDeleted={() => {
            setDeleting(undefined);
            void load();
          }}
        />
      ) : null}
    </section>
  );
}

function AddMenu({ open, setOpen }: { open: Open; setOpen: (open: Open) => void }) {
  const menu = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (open !== 'menu') return;
    const onDown = (event: MouseEvent) => {
      if (!menu.current?.contains(event.target as Node)) setOpen('none');
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open, setOpen]);

  return (
    <div className="menu-anchor" ref={menu}>
      <button
        type="button"
        className="button button-primary"
        aria-haspopup="menu"
        aria-expanded={open === 'menu'}
        onClick={() => setOpen(open === 'menu' ? 'none' : 'menu')}
        data-testid="add-api-key"
      >
        Add
      </button>
      {open === 'menu' ? (
        <div className="menu" role="menu">
          <button
            type="button"
            role="menuitem"
            onClick={() => setOpen('standard')}
            data-testid="add-standard-key"
          >
            <strong>Standard API key</strong>
            <span>Choose a name and an optional expiry date.</span>
          </button>
          <button
            type="button"
            role="menuitem"
            onClick={() => setOpen('quick')}
            data-testid="add-quick-connection"
          >
            <strong>Quick connections</strong>
            <span>Claude Desktop, Cursor, VS Code, n8n and more.</span>
          </button>
        </div>
      ) : null}
    </div>
  );
}

const EXPIRY_CHOICES = [
  { value: 'never', label: 'Never', testId: 'key-expiry-never' },
  { value: 'date', label: 'On a date', testId: 'key-expiry-on-date' },
] as const;

function StandardKeyDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (key: CreatedKey) => void;
}) {
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState<'never' | 'date'>('never');
  // A date means the end of that day in the browser's time zone; the server reads it there too.
  const [timeZone] = useState(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const [date, setDate] = useState(() => addDays(zonedDate(new Date(), timeZone), EXPIRY_DEFAULT_DAYS));
  const { busy, error, setError, run } = useSubmit();
  const { min, max } = expiryDateRange(new Date(), timeZone);
  // A refusal speaks of the values that were sent: once one of them changes, it no longer applies.
  const edited =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      setError(undefined);
      set(value);
    };
  const editName = edited(setName);
  const editExpiry = edited(setExpiry);
  const editDate = edited(setDate);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed.length < 1 || trimmed.length > API_KEY_NAME_MAX) {
      setError(`Name must be 1 to ${API_KEY_NAME_MAX} characters.`);
      return;
    }
    if (expiry === 'date' && (!date || date < min || date > max)) {
      setError(`Choose an expiry date from ${min} to ${max}.`);
      return;
    }
    void run(async () =>
      onCreated(
        await api.createApiKey(
          expiry === 'date' ? { name: trimmed, expiresAt: date, timeZone } : { name: trimmed },
        ),
      ),
    );
  };

  return (
    <Dialog title="Standard API key" onClose={onClose} testId="standard-key-dialog">
      <form className="form" onSubmit={submit}>
        <RequiredField
          label="Name"
          maxLength={API_KEY_NAME_MAX}
          placeholder="e.g. Reporting script"
          testId="key-name"
          value={name}
          onChange={(event) => editName(event.target.value)}
        />
        <fieldset className="radio-group">
          <legend>Expires</legend>
          {EXPIRY_CHOICES.map((choice) => (
            <label className="inline" key={choice.value}>
              <input
                type="radio"
                name="expiry"
                checked={expiry === choice.value}
                onChange={() => editExpiry(choice.value)}
                data-testid={choice.testId}
              />
              {choice.label}
            </label>
          ))}
          {expiry === 'date' ? (
            <label>
              Expiry date
              <input
                type="date"
                required
                min={min}
                max={max}
                value={date}
                onChange={(event) => editDate(event.target.value)}
                data-testid="key-expiry-date"
              />
              <span className="hint" data-testid="key-expiry-rule">
                1 to 365 days ahead: the key works until the end of that day (23:59, {timeZone}), at least 24
                hours.
              </span>
            </label>
          ) : null}
        </fieldset>
        <p className="hint">Name and expiry cannot be changed later.</p>
        <ErrorMessage message={error} />
        <DialogActions
          onCancel={onClose}
          label="Create key"
          busyLabel="Creating…"
          busy={busy}
          testId="key-create-submit"
        />
      </form>
    </Dialog>
  );
}

function KeyCard({
  apiKey,
  canDelete,
  onDelete,
}: {
  apiKey: ApiKey;
  canDelete: boolean;
  onDelete: () => void;
}) {
  return (
    <li className="card" data-testid="api-key-card" data-key-id={apiKey.id}>
      <div className="card-header">
        <h3 data-testid="api-key-name">{apiKey.name}</h3>
        {apiKey.kind === 'quick' ? <span className="tag">Quick connection</span> : null}
      </div>
      <Facts
        facts={[
          ['Created at', <DateTime value={apiKey.createdAt} testId="api-key-created-at" />],
          [
            'Expires at',
            apiKey.expiresAt ? <DateTime value={apiKey.expiresAt} testId="api-key-expires-at" /> : 'Never',
            'api-key-expires',
          ],
          [
            'Last used',
            apiKey.lastUsedAt ? (
              <DateTime value={apiKey.lastUsedAt} testId="api-key-last-used-at" />
            ) : (
              'Never'
            ),
            'api-key-last-used',
          ],
        ]}
      />
      {canDelete ? (
        <div className="card-actions">
          <DangerButton label="Delete" onClick={onDelete} testId="api-key-delete" />
        </div>
      ) : null}
    </li>
  );
}

function DeleteKeyDialog({
  apiKey,
  onClose,
  onDeleted,
}: {
  apiKey: ApiKey;
  onClose: () => void;
  onDeleted: () => void;
}) {
  return (
    <ConfirmDialog
      title="Delete API key"
      message={
        <p>
          Delete <strong>{apiKey.name}</strong>? Clients using it stop working at once. This cannot be undone.
        </p>
      }
      confirmLabel="Delete key"
      action={() => api.deleteApiKey(apiKey.id)}
      onDone={onDeleted}
      onCancel={onClose}
    />
  );
}
