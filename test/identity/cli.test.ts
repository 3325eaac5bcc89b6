import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Member } from '../../src/identity/member.entity';
import { Role } from '../../src/identity/role.entity';
import { User } from '../../src/identity/user.entity';
import { Workspace } from '../../src/identity/workspace.entity';
import { verifyPassword } from '../../src/identity/sign-in/passwords';
import { projectRoot } from '../../src/project-root';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

/** `npm run cli -- …` as a self-hoster runs it (the built dist/src/cli.js). */
describe('self-hosting CLI', () => {
  let db: TestDatabase;
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [join(projectRoot(), 'dist', 'src', 'cli.js'), ...args], {
      env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('create-workspace makes a workspace, its built-in roles and its Admin, printing a generated password once', async () => {
    const result = cli('create-workspace', '--name', 'Self Hosted', '--admin-email', 'Root@Example.com');
    expect(result.status).toBe(0);
    const password = /Generated password \(shown once\): ([A-Za-z0-9]{16})/.exec(result.stdout)?.[1];
    expect(password).toBeDefined();

    const workspace = await db.dataSource.manager.findOneByOrFail(Workspace, { name: 'Self Hosted' });
    const roles = await db.dataSource.manager.findBy(Role, { workspaceId: workspace.id });
    expect(roles.map((role) => role.name).sort()).toEqual(['Admin', 'Member', 'Viewer']);
    const user = await db.dataSource.manager.findOneByOrFail(User, { email: 'root@example.com' });
    expect(await verifyPassword(password!, user.passwordHash)).toBe(true);
    const member = await db.dataSource.manager.findOneByOrFail(Member, {
      workspaceId: workspace.id,
      userId: user.id,
    });
    expect(roles.find((role) => role.id === member.roleId)?.isAdmin).toBe(true);
  });

  it('holds given passwords to the sign-up rule, and creates nothing when one is too short', async () => {
    for (const args of [
      [
        'create-workspace',
        '--name',
        'Weak',
        '--admin-email',
        'weak@example.com',
        '--admin-password',
        'short',
      ],
      ['add-member', '--workspace', 'Weak', '--email', 'weak@example.com', '--password', 'short'],
    ]) {
      const result = cli(...args);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain('Use at least 15 characters');
    }
    expect(await db.dataSource.manager.existsBy(User, { email: 'weak@example.com' })).toBe(false);
  });

  it('add-member adds a member with the named role and the given password', async () => {
    const result = cli(
      'add-member',
      '--workspace',
      'Self Hosted',
      '--email',
      'ops@example.com',
      '--role',
      'viewer',
      '--password',
      'night shift keeps the lights',
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Added ops@example.com to "Self Hosted" as Viewer.');
    expect(result.stdout).not.toContain('Generated password');
    const user = await db.dataSource.manager.findOneByOrFail(User, { email: 'ops@example.com' });
    expect(await verifyPassword('night shift keeps the lights', user.passwordHash)).toBe(true);
  });

  it("create-workspace is the operator's act: not bounded by WORKSPACES_PER_PERSON, not counted against the Admin", async () => {
    // A person at their bound (the web app would refuse them 403 workspaceLimitReached).
    await db.dataSource.manager.update(User, { email: 'ops@example.com' }, { workspacesCreated: 5 });
    for (const name of ['Ops One', 'Ops Two']) {
      const result = cli('create-workspace', '--name', name, '--admin-email', 'ops@example.com');
      expect(result.status).toBe(0);
      expect(result.stdout).not.toContain('Generated password');
    }
    const user = await db.dataSource.manager.findOneByOrFail(User, { email: 'ops@example.com' });
    expect(user.workspacesCreated).toBe(5);
    expect(await db.dataSource.manager.countBy(Member, { userId: user.id })).toBe(3);
    // The CLI's new Admins start with nothing counted either.
    expect(
      (await db.dataSource.manager.findOneByOrFail(User, { email: 'root@example.com' })).workspacesCreated,
    ).toBe(0);
  });

  it.each([
    ['create-workspace', '--admin-email EMAIL'],
    ['add-member', '--role ROLE_NAME'],
    ['reset-password', '--email EMAIL'],
    ['messaging', 'messaging simulate --account'],
    ['import-legacy-webhooks', 'import-legacy-webhooks FILE'],
  ])('%s --help prints its help only, and exits 0 (issue 37, item 6)', (command, line) => {
    for (const args of [
      [command, '--help'],
      [command, '--name', 'X', '-h'],
      ['help', command],
    ]) {
      const result = cli(...args);
      expect({ args, status: result.status, stderr: result.stderr }).toEqual({ args, status: 0, stderr: '' });
      expect(result.stdout).toContain(line);
      expect(result.stdout).not.toContain('Unknown option');
      // Only this command's part of the usage.
      const others = ['create-workspace', 'add-member', 'reset-password', 'import-legacy-webhooks'];
      for (const other of others.filter((name) => name !== command)) {
        expect(result.stdout).not.toContain(`  ${other} `);
      }
    }
    expect(cli('--help')).toMatchObject({ status: 0, stderr: '' });
  });

  it('explains a wrong call in words, with the usage, and exit code 1', () => {
    const missing = cli('create-workspace', '--name', 'X');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('--admin-email is required.');
    expect(missing.stderr).toContain('Usage: npm run cli');

    const unknownRole = cli(
      'add-member',
      '--workspace',
      'Self Hosted',
      '--email',
      'x@example.com',
      '--role',
      'Boss',
    );
    expect(unknownRole.status).toBe(1);
    expect(unknownRole.stderr).toContain('No role "Boss"');

    const unknownCommand = cli('frobnicate');
    expect(unknownCommand.status).toBe(1);
    expect(unknownCommand.stderr).toContain('Unknown command "frobnicate".');
    expect(unknownCommand.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('reset-password sets a generated password printed once, verifies the account and ends its sessions', async () => {
    expect(cli('create-workspace', '--name', 'Resets', '--admin-email', 'lost@example.com').status).toBe(0);
    const before = await db.dataSource.manager.findOneByOrFail(User, { email: 'lost@example.com' });
    expect(before.emailVerifiedAt).not.toBeNull();
    // As a signed-up account that never proved its address, signed in somewhere.
    await db.dataSource.query(`UPDATE users SET email_verified_at = NULL WHERE id = $1`, [before.id]);
    await db.dataSource.query(
      `INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ('elsewhere', $1, now() + interval '1 day')`,
      [before.id],
    );

    const result = cli('reset-password', '--email', 'Lost@Example.com');
    expect(result.status).toBe(0);
    const password = /Generated password \(shown once\): ([A-Za-z0-9]{16})/.exec(result.stdout)?.[1];
    expect(password).toBeDefined();
    const after = await db.dataSource.manager.findOneByOrFail(User, { id: before.id });
    expect(await verifyPassword(password!, after.passwordHash)).toBe(true);
    expect(after.emailVerifiedAt).not.toBeNull();
    const [{ count }] = await db.dataSource.query(
      `SELECT count(*)::int AS count FROM sessions WHERE user_id = $1`,
      [before.id],
    );
    expect(count).toBe(0);

    const unknown = cli('reset-password', '--email', 'nobody@example.com');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('No account has the email nobody@example.com');
  });
});
