// Settings → Connected accounts (Admin only; app-api.md, "Connected accounts"; docs/messaging.md):
// the workspace's messaging accounts, whose providers send their activity signed to the inbound
// endpoint of each account. Connect shows the account's signing secret once; Disconnect after a
// confirmation.
import { useEffect, useState, type FormEvent } from 'react';
import { api, errorMessage, type ConnectedAccount, type ConnectedAccountCreated } from '../api';
import {
  ACCOUNT_ID_MAX,
  DISPLAY_NAME_MAX,
  OTHER_PROVIDER,
  PROVIDERS,
  PROVIDER_MAX,
  inboundUrlOf,
  providerLabel,
  publicUrlOf,
  simulateCommandOf,
} from '../connected-accounts';
import { CopyButton } from '../components/CopyButton';
import {
  ConfirmDialog,
  DangerButton,
  Dialog,
  DialogActions,
  ErrorMessage,
  SubmitButton,
} from '../components/Dialog';
import { ItemsTable } from '../components/ListParts';
import { RequiredField } from '../components/RequiredField';
import { useFormFields } from '../components/useFormFields';
import { PageHeader } from '../components/PageHeader';
import { DateTime } from '../format';
import { useSession } from '../session';
import { useSubmit } from '../hooks/useSubmit';

const ACCOUNTS_TABLE = {
  className: 'table accounts-table',
  testId: 'connected-accounts-table',
  columns: ['Provider', 'Account id', 'Display name', 'Inbound endpoint', 'Connected at'],
  actions: true,
};
const NO_ACCOUNTS = {
  text: 'No connected accounts yet. Connect one to receive its activity as messaging events.',
  testId: 'connected-accounts-empty',
};

export function ConnectedAccountsPage() {
  const session = useSession();
  const publicUrl = publicUrlOf(session);
  const [accounts, setAccounts] = useState<ConnectedAccount[]>();
  const [loadError, setLoadError] = useState<string>();
  const [connecting, setConnecting] = useState(false);
  const [connected, setConnected] = useState<ConnectedAccountCreated>();
  const [disconnecting, setDisconnecting] = useState<ConnectedAccount>();
  const [notice, setNotice] = useState<string>();
  const [reloads, setReloads] = useState(0);
  const reload = () => setReloads((count) => count + 1);
  // Opening a dialog drops the notice the last one left.
  const opening = (open: () => void) => () => {
    setNotice(undefined);
    open();
  };

  useEffect(() => {
    let live = true;
    api
      .connectedAccounts()
      .then((answer) => {
        if (!live) return;
        setAccounts(answer.data);
        setLoadError(undefined);
      })
      .catch((failure: unknown) => live && setLoadError(errorMessage(failure)));
    return () => {
      live = false;
    };
  }, [reloads]);

  return (
    <section data-testid="connected-accounts-page">
      <PageHeader
        title="Connected accounts"
        lead={
          <>
            Messaging accounts of <strong>{session.workspace.name}</strong>: their providers send messages,
            emails, chats and calendar changes here, signed with the account&rsquo;s secret, and your webhooks
            receive them as messaging events.
          </>
        }
      >
        <SubmitButton
          label="Connect account"
          onClick={opening(() => setConnecting(true))}
          testId="connect-account"
        />
      </PageHeader>

      {notice ? (
        <p className="notice" role="status" data-testid="connected-accounts-notice">
          {notice}
        </p>
      ) : null}
      <ErrorMessage message={loadError} />

      <ItemsTable items={accounts} failed={Boolean(loadError)} empty={NO_ACCOUNTS} table={ACCOUNTS_TABLE}>
        {(account) => (
          <tr
            key={account.id}
            data-testid="connected-account-row"
            data-id={account.id}
            data-provider={account.provider}
            data-account-id={account.accountId}
          >
            <td className="cell-provider" data-testid="account-cell-provider" title={account.provider}>
              {providerLabel(account.provider)}
            </td>
            <td className="cell-account-id" data-testid="account-cell-account-id">
              {account.accountId}
            </td>
            <td className="cell-display-name" data-testid="account-cell-display-name">
              {account.displayName}
            </td>
            <td className="cell-url">
              <code className="endpoint" data-testid="account-cell-endpoint">
                {inboundUrlOf(publicUrl, account.id)}
              </code>
            </td>
            <td>
              <DateTime value={account.createdAt} testId="account-connected-at" />
            </td>
            <td className="cell-actions">
              <DangerButton
                small
                label="Disconnect"
                onClick={opening(() => setDisconnecting(account))}
                testId="account-disconnect"
              />
            </td>
          </tr>
        )}
      </ItemsTable>
      {accounts && accounts.length > 0 ? (
        <p className="hint section-title">
          Each provider sends <code>POST</code> requests to its account&rsquo;s endpoint with an{' '}
          <code>X-Provider-Signature</code> header: the hex HMAC-SHA256 of the raw body, keyed with the
          account&rsquo;s signing secret. Activity is kept only while an enabled webhook subscribes to its
          messaging event.
        </p>
      ) : null}

      {connecting ? (
        <ConnectAccountDialog
          onClose={() => setConnecting(false)}
          onConnected={(created) => {
            setConnecting(false);
            setConnected(created);
            reload();
          }}
        />
      ) : null}
      {connected ? (
        <ConnectedAccountDialog
          connected={connected}
          publicUrl={publicUrl}
          onClose={() => setConnected(undefined)}
        />
      ) : null}
      {disconnecting ? (
        <ConfirmDialog
          title="Disconnect account"
          message={
            <p>
              Disconnect <strong>{disconnecting.displayName}</strong>{' '}
              <span className="break">
                ({providerLabel(disconnecting.provider)}, {disconnecting.accountId})
              </span>
              ? Its provider&rsquo;s requests are refused from now on and its signing secret stops working.
              Connecting it again gives it a new endpoint and a new secret.
            </p>
          }
          confirmLabel="Disconnect"
          action={() => api.disconnectAccount(disconnecting.id)}
          onDone={() => {
            setNotice(`${disconnecting.displayName} disconnected.`);
            setDisconnecting(undefined);
            reload();
          }}
          onCancel={() => setDisconnecting(undefined)}
        />
      ) : null}
    </section>
  );
}

/** The dialog's text fields, in order (the first only for another provider), and each one's refusal when empty. */
const ACCOUNT_FIELDS = {
  otherProvider: {
    input: {
      label: 'Other provider',
      hint: 'The provider’s id, as your integration names it.',
      maxLength: PROVIDER_MAX,
      placeholder: 'e.g. zoho-mail',
      testId: 'account-provider-other',
    },
    missing: 'Enter the provider.',
  },
  accountId: {
    input: {
      label: 'Account id',
      hint: 'The provider’s id of the account: an address, a phone number, a workspace id.',
      maxLength: ACCOUNT_ID_MAX,
      placeholder: 'e.g. sales@example.com',
      testId: 'account-id',
    },
    missing: 'Enter the account id.',
  },
  displayName: {
    input: {
      label: 'Display name',
      maxLength: DISPLAY_NAME_MAX,
      placeholder: 'e.g. Sales inbox',
      testId: 'account-display-name',
    },
    missing: 'Enter a display name.',
  },
} as const;
type AccountField = keyof typeof ACCOUNT_FIELDS;

function ConnectAccountDialog({
  onClose,
  onConnected,
}: {
  onClose: () => void;
  onConnected: (created: ConnectedAccountCreated) => void;
}) {
  const [choice, setChoice] = useState<string>(PROVIDERS[0]?.id ?? OTHER_PROVIDER);
  const { form, field } = useFormFields({ otherProvider: '', accountId: '', displayName: '' });
  const { busy, error, setError, run } = useSubmit();
  const other = choice === OTHER_PROVIDER;
  const shown = (Object.keys(ACCOUNT_FIELDS) as AccountField[]).filter(
    (name) => other || name !== 'otherProvider',
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const provider = (other ? form.otherProvider : choice).trim();
    const input = { provider, accountId: form.accountId.trim(), displayName: form.displayName.trim() };
    const empty = shown.find((name) => !(name === 'otherProvider' ? provider : input[name]));
    if (empty) {
      setError(ACCOUNT_FIELDS[empty].missing);
      return;
    }
    void run(async () => onConnected(await api.connectAccount(input)));
  };

  return (
    <Dialog title="Connect account" onClose={onClose} testId="connect-account-dialog">
      <form className="form" onSubmit={submit}>
        <label>
          Provider
          <select
            value={choice}
            onChange={(event) => {
              setError(undefined);
              setChoice(event.target.value);
            }}
            data-testid="account-provider"
          >
            {PROVIDERS.map((provider) => (
              <option key={provider.id} value={provider.id}>
                {provider.label}
              </option>
            ))}
            <option value={OTHER_PROVIDER}>Other…</option>
          </select>
        </label>
        {shown.map((name) => (
          <RequiredField key={name} {...ACCOUNT_FIELDS[name].input} {...field(name)} />
        ))}
        <p className="hint">
          The account gets a signing secret, shown once after connecting, for the provider&rsquo;s
          configuration.
        </p>
        <ErrorMessage message={error} />
        <DialogActions
          onCancel={onClose}
          label="Connect"
          busyLabel="Connecting…"
          busy={busy}
          testId="connect-account-submit"
        />
      </form>
    </Dialog>
  );
}

/**
 * The one and only time an account's signing secret is shown: closing the dialog forgets it (the
 * page keeps it nowhere else, and the server never returns it again).
 */
function ConnectedAccountDialog({
  connected,
  publicUrl,
  onClose,
}: {
  connected: ConnectedAccountCreated;
  publicUrl: string;
  onClose: () => void;
}) {
  const { account, signingSecret } = connected;
  const endpoint = inboundUrlOf(publicUrl, account.id);
  const command = simulateCommandOf(account.id);
  return (
    <Dialog
      title={`Account “${account.displayName}” connected`}
      onClose={onClose}
      testId="connected-account-dialog"
      wide
      actions={<DialogActions label="Done" onClick={onClose} testId="connected-account-done" />}
    >
      <p className="notice notice-warning">
        Copy this signing secret now. It is shown only once: after you close this dialog it cannot be shown
        again.
      </p>
      <div className="key-value-row">
        <code className="key-value" data-testid="signing-secret">
          {signingSecret}
        </code>
        <CopyButton text={signingSecret} label="Copy" testId="copy-signing-secret" />
      </div>
      <p>
        Set up {providerLabel(account.provider)} to send the account&rsquo;s activity to this endpoint,
        signing each request with the secret:
      </p>
      <div className="key-value-row">
        <code className="key-value" data-testid="connected-account-endpoint">
          POST {endpoint}
        </code>
        <CopyButton text={endpoint} label="Copy URL" testId="copy-endpoint" />
      </div>
      <p className="hint">
        The <code>X-Provider-Signature</code> header holds the lowercase hex HMAC-SHA256 of the raw request
        body, keyed with the signing secret; requests that do not verify are refused (401). Activity becomes a
        messaging event, such as <code>messaging.message.received</code>, only while an enabled webhook
        subscribes to it.
      </p>
      <div className="snippet">
        <div className="snippet-header">
          <span className="snippet-title">Without a real provider: play one locally</span>
          <CopyButton text={command} label="Copy command" testId="copy-simulate-command" />
        </div>
        <pre className="wrap" data-testid="simulate-command">
          {command}
        </pre>
      </div>
    </Dialog>
  );
}
