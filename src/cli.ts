// `npm run cli -- <command> [options]`: administration for self-hosting. Works against
// DATABASE_URL, or the embedded PostgreSQL under DATA_DIR when DATABASE_URL is unset.
import { parseArgs } from 'node:util';
import { ConfigError } from './config';
import { withDatabase } from './db/with-database';
import { AppError } from './errors/app-error';
import { createWorkspaceWithAdmin } from './identity/bootstrap';
import { addMember } from './identity/members.service';
import { Role } from './identity/role.entity';
import { Workspace } from './identity/workspace.entity';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  create-workspace --name NAME --admin-email EMAIL [--admin-password PASSWORD] [--admin-name NAME]
      Creates a workspace with its built-in roles (Admin, Member, Viewer) and its first Admin.
      Without --admin-password a password is generated and printed once.
  add-member --workspace WORKSPACE_ID_OR_NAME --email EMAIL [--role ROLE_NAME] [--name NAME] [--password PASSWORD]
      Adds a member (default role: Member). A new user gets the given or a generated password.
  help
      Shows this text.`;

const say = (line: string) => process.stdout.write(`${line}\n`);

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required.`);
  return value;
}

class UsageError extends Error {}

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
  if (password !== undefined && password.length < 8)
    throw new UsageError('--admin-password needs at least 8 characters.');
  const created = await withDatabase((dataSource) =>
    createWorkspaceWithAdmin(dataSource, {
      name: required(values, 'name'),
      adminEmail: required(values, 'admin-email'),
      adminPassword: password,
      adminName: values['admin-name'],
    }),
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
  const result = await withDatabase(async (dataSource) => {
    const isId = /^[0-9a-f-]{36}$/i.test(workspaceRef);
    const workspaces = await dataSource.manager.findBy(
      Workspace,
      isId ? { id: workspaceRef } : { name: workspaceRef },
    );
    if (workspaces.length !== 1) {
      throw new UsageError(
        workspaces.length
          ? `Several workspaces are named "${workspaceRef}": use its id.`
          : `No workspace "${workspaceRef}".`,
      );
    }
    const workspace = workspaces[0]!;
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

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  switch (command) {
    case 'create-workspace':
      return createWorkspaceCommand(args);
    case 'add-member':
      return addMemberCommand(args);
    case undefined:
    case 'help':
    case '--help':
      say(USAGE);
      return;
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) process.stderr.write(`${error.message}\n\n${USAGE}\n`);
  else if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else if (error instanceof AppError) process.stderr.write(`${error.message}\n`);
  else if (error instanceof TypeError && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
  } else process.stderr.write(`Failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
