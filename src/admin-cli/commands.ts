// The administration CLI's commands (src/cli.ts parses the call and loads this file only to run one).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../config';
import { withDatabase } from '../app/db/with-database';
import { passwordProblem } from '../shared/credentials/password.rules';
import { createWorkspaceWithAdmin } from '../identity/bootstrap';
import { identityHooks } from '../app/services';
import { addMember } from '../identity/members.service';
import { resetPasswordByOperator } from '../identity/email-proof/password-reset.service';
import { signInThrottleOf } from '../identity/sign-in/sign-in-throttle';
import type { Pool } from 'pg';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { Role } from '../identity/role.entity';
import { Workspace } from '../identity/workspace.entity';
import { ConnectedAccount } from '../messaging/connected-account.entity';
import { MessagingService } from '../messaging/messaging.service';
import { ACTIVITY_TYPES } from '../messaging/provider-activity';
import { simulateProvider } from '../messaging/simulator';
import { resolveEncryptionKey } from '../security/encryption-key';
import { SecretBox } from '../security/secret-box';
import { importLegacyWebhooks } from '../webhooks/legacy-import';
import { importedDeliveries } from '../deliveries/store';
import { listen } from './listen';
import { UsageError } from './usage';

const say = (line: string) => process.stdout.write(`${line}\n`);

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required.`);
  return value;
}

/** A password given on the command line follows the web sign-up rule. */
function checkPassword(option: string, password: string | undefined): void {
  const problem = password === undefined ? undefined : passwordProblem(password);
  if (problem) throw new UsageError(`${option}: ${problem.message}`);
}

async function createWorkspaceCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: 'string' },
      'admin-email': { type: 'string' },
      'admin-password': { type: 'string' },
      'admin-name': { type: 'string' },
    },
  });
  const password = values['admin-password'];
  checkPassword('--admin-password', password);
  const created = await withDatabase((dataSource) =>
    createWorkspaceWithAdmin(
      dataSource,
      {
        name: required(values, 'name'),
        adminEmail: required(values, 'admin-email'),
        adminPassword: password,
        adminName: values['admin-name'],
      },
      identityHooks,
    ),
  );
  say(
    `Created workspace "${created.workspace.name}" (${created.workspace.id}); Admin: ${created.adminEmail}`,
  );
  if (created.generatedPassword) say(`Generated password (shown once): ${created.generatedPassword}`);
}

async function addMemberCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      workspace: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string', default: 'Member' },
      name: { type: 'string' },
      password: { type: 'string' },
    },
  });
  const workspaceRef = required(values, 'workspace');
  checkPassword('--password', values.password);
  const result = await withDatabase(async (dataSource) => {
    const workspace = await findWorkspace(dataSource, workspaceRef);
    const role = await dataSource.manager
      .createQueryBuilder(Role, 'r')
      .where('r.workspace_id = :id AND lower(r.name) = lower(:name)', { id: workspace.id, name: values.role })
      .getOne();
    if (!role) throw new UsageError(`No role "${values.role}" in workspace "${workspace.name}".`);
    const added = await addMember(dataSource, workspace.id, {
      email: required(values, 'email'),
      name: values.name,
      roleId: role.id,
      password: values.password,
    });
    return { workspace, role, ...added };
  });
  say(`Added ${result.member.email} to "${result.workspace.name}" as ${result.role.name}.`);
  if (result.temporaryPassword) say(`Generated password (shown once): ${result.temporaryPassword}`);
}

async function findWorkspace(dataSource: DataSource, reference: string): Promise<Workspace> {
  const isId = /^[0-9a-f-]{36}$/i.test(reference);
  const workspaces = await dataSource.manager.findBy(
    Workspace,
    isId ? { id: reference } : { name: reference },
  );
  if (workspaces.length !== 1) {
    throw new UsageError(
      workspaces.length
        ? `Several workspaces are named "${reference}": use its id.`
        : `No workspace "${reference}".`,
    );
  }
  return workspaces[0]!;
}

const secretBox = () => {
  const config = loadConfig();
  return new SecretBox(resolveEncryptionKey(config, !config.DATABASE_URL));
};

async function messagingCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'connect') {
    const { values } = parseArgs({
      args: rest,
      options: {
        workspace: { type: 'string' },
        provider: { type: 'string' },
        'account-id': { type: 'string' },
        'display-name': { type: 'string' },
      },
    });
    const connected = await withDatabase(async (dataSource) => {
      const workspace = await findWorkspace(dataSource, required(values, 'workspace'));
      const messaging = new MessagingService(dataSource, secretBox(), loadConfig());
      return messaging.connectAccount(workspace.id, {
        provider: required(values, 'provider'),
        accountId: required(values, 'account-id'),
        displayName: required(values, 'display-name'),
      });
    });
    say(
      `Connected ${connected.account.provider} account "${connected.account.displayName}": ${connected.account.id}`,
    );
    say(`Signing secret (shown once): ${connected.signingSecret}`);
    return;
  }
  if (sub === 'simulate') {
    const { values } = parseArgs({
      args: rest,
      options: {
        account: { type: 'string' },
        event: { type: 'string', multiple: true },
        replay: { type: 'boolean' },
        url: { type: 'string' },
      },
    });
    const accountId = required(values, 'account');
    const types = values.event?.map((event) => event.replace(/^messaging\./, ''));
    for (const type of types ?? []) {
      if (!ACTIVITY_TYPES.includes(type))
        throw new UsageError(`Unknown messaging event "messaging.${type}".`);
    }
    const signingSecret = await withDatabase(async (dataSource) => {
      const account = await dataSource.manager.findOneBy(ConnectedAccount, { id: accountId });
      if (!account) throw new UsageError(`No connected account ${accountId}.`);
      return secretBox().open(account.signingSecretSealed);
    });
    const baseUrl = (values.url ?? loadConfig().PUBLIC_URL).replace(/\/+$/, '');
    for (const result of await simulateProvider({
      baseUrl,
      accountId,
      signingSecret,
      types,
      replay: values.replay,
    })) {
      say(`messaging.${result.type}: ${result.status} ${JSON.stringify(result.answer)}`);
    }
    return;
  }
  throw new UsageError(`Unknown command "messaging ${sub ?? ''}".`);
}

async function importLegacyCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { workspace: { type: 'string' } },
  });
  const file = positionals[0];
  if (!file) throw new UsageError('Name the JSON file to import.');
  let content: unknown;
  try {
    content = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(
      `Cannot read ${file} as JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const imported = await withDatabase(async (dataSource) => {
    const workspace = await findWorkspace(dataSource, required(values, 'workspace'));
    return importLegacyWebhooks(dataSource, secretBox(), importedDeliveries, workspace.id, content);
  });
  say(`Imported ${imported.webhooks} webhook(s) and ${imported.deliveries} delivery record(s).`);
}

async function resetPasswordCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { email: { type: 'string' } } });
  const email = required(values, 'email');
  const reset = await withDatabase((dataSource) =>
    resetPasswordByOperator(
      dataSource,
      signInThrottleOf((dataSource.driver as PostgresDriver).master as Pool, loadConfig()),
      email,
    ),
  );
  if (!reset) throw new UsageError(`No account has the email ${email}.`);
  say(`Reset the password of ${reset.email}; every session of the account ended.`);
  say(`Generated password (shown once): ${reset.password}`);
}

async function listenCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      'forward-to': { type: 'string' },
      events: { type: 'string' },
      'api-key': { type: 'string' },
      url: { type: 'string' },
    },
  });
  const forwardTo = required(values, 'forward-to');
  if (!URL.canParse(forwardTo)) throw new UsageError(`--forward-to: ${forwardTo} is not a URL.`);
  const apiKey = values['api-key'] ?? process.env.CRM_API_KEY;
  if (!apiKey) throw new UsageError('--api-key (or the CRM_API_KEY environment variable) is required.');
  const ending = new AbortController();
  process.once('SIGINT', () => ending.abort());
  process.once('SIGTERM', () => ending.abort());
  await listen({
    baseUrl: values.url ?? loadConfig().PUBLIC_URL,
    apiKey,
    forwardTo,
    events: values.events?.split(',').map((event) => event.trim()),
    say,
    signal: ending.signal,
  });
}

/** Runs one of the commands in COMMANDS (src/admin-cli/usage.ts) with its arguments. */
export async function runCommand(command: string, args: string[]): Promise<void> {
  switch (command) {
    case 'create-workspace':
      return createWorkspaceCommand(args);
    case 'add-member':
      return addMemberCommand(args);
    case 'reset-password':
      return resetPasswordCommand(args);
    case 'messaging':
      return messagingCommand(args);
    case 'import-legacy-webhooks':
      return importLegacyCommand(args);
    case 'listen':
      return listenCommand(args);
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}
