import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mailer } from '../src/mail/mailer';
import { connectTemporal } from '../src/temporal/client';
import { ensureSearchAttributes } from '../src/temporal/search-attributes';
import { projectRoot } from '../src/project-root';
import { onFreePorts } from '../src/embedded/stack-ports';
import { mailInbox } from './helpers/mail-catcher';
import { freePort } from './helpers/ports';

/**
 * The embedded stack exactly as `npm start` runs it (the built dist/src/main.js, which
 * `npm test` builds first): PostgreSQL, the Temporal dev server, the mail catcher, migrations, API
 * and worker.
 */
const MAIN = join(projectRoot(), 'dist', 'src', 'main.js');
const START_TIMEOUT_MS = 150_000;

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startMain(env: Record<string, string>): Started {
  let output = '';
  // Its own process group, so a signal to the group behaves like Ctrl-C in a terminal.
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForOutput(started: Started, text: string, timeoutMs = START_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!started.output().includes(text)) {
    if (started.child.exitCode !== null) throw new Error(`exited early:\n${started.output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for "${text}":\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Every process on this machine whose command line mentions `needle`. */
function processesMentioning(needle: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(needle)) found.push(`${pid}: ${cmdline}`);
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

describe('embedded stack (npm start)', () => {
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'crm-embedded-'));
    chmodSync(dataDir, 0o755);
    env = {
      DATA_DIR: dataDir,
      ...(await onFreePorts(freePort)),
      // The stack's own catcher, whatever this shell points at (empty is unset).
      MAIL_URL: '',
    };
  });

  afterAll(() => {
    for (const line of processesMentioning(dataDir)) process.kill(Number(line.split(':')[0]), 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'starts everything, reports healthy dependencies, and stops every child on Ctrl-C',
    async () => {
      const started = startMain(env);
      try {
        await waitForOutput(started, 'Press Ctrl-C to stop.');
        const output = started.output();
        expect(output).toContain(`Web app:          http://localhost:${env.PORT}/`);
        expect(output).toContain(`REST API:         http://localhost:${env.PORT}/api/v1`);
        expect(output).toContain(`MCP endpoint:     http://localhost:${env.PORT}/api/v1/mcp`);
        expect(output).toContain(`Temporal Web UI:  http://localhost:${env.TEMPORAL_UI_PORT}/`);
        // The first run creates a demo workspace and prints its Admin's generated password once.
        expect(output).toContain('Created "Demo workspace" with its first Admin.');
        const password = /password: ([A-Za-z0-9]{16}) {3}\(shown once\)/.exec(output)?.[1];
        expect(password).toBeDefined();
        const signIn = await fetch(`http://127.0.0.1:${env.PORT}/app/api/auth/sign-in`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${env.PORT}` },
          body: JSON.stringify({ email: 'admin@example.com', password }),
        });
        expect(signIn.status).toBe(200);
        const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;

        const health = await fetch(`http://127.0.0.1:${env.PORT}/healthz`);
        expect(health.status).toBe(200);
        expect(await health.json()).toMatchObject({
          status: 'ok',
          database: { status: 'ok' },
          temporal: { status: 'ok' },
        });

        const ui = await fetch(`http://127.0.0.1:${env.TEMPORAL_UI_PORT}/`);
        expect(ui.status).toBe(200);

        // The mail catcher: its inbox page in the banner, and a message sent to its SMTP port there.
        expect(output).toContain(`Mail inbox:       http://localhost:${env.MAIL_CATCHER_UI_PORT}/`);
        const inboxPage = await fetch(`http://127.0.0.1:${env.MAIL_CATCHER_UI_PORT}/`);
        expect(inboxPage.status).toBe(200);
        const mailer = new Mailer({
          url: `smtp://127.0.0.1:${env.MAIL_CATCHER_SMTP_PORT}`,
          from: 'crm@example.test',
        });
        try {
          await mailer.send({ to: 'ada@example.test', subject: 'Caught by the stack', text: 'hello' });
        } finally {
          mailer.close();
        }
        const inbox = mailInbox(`http://127.0.0.1:${env.MAIL_CATCHER_UI_PORT}/api/v1`);
        const caught = await inbox.waitForMessage({ to: 'ada@example.test' });
        expect(caught.Subject).toBe('Caught by the stack');
        expect(caught.Text.trim()).toBe('hello');
        expect(await inbox.messages()).toHaveLength(1);

        // The metrics, on their own listener, in Prometheus's text format with the lanes' slots.
        expect(output).toContain(`Metrics:          http://127.0.0.1:${env.METRICS_PORT}/metrics`);
        const metrics = await fetch(`http://127.0.0.1:${env.METRICS_PORT}/metrics`);
        expect(metrics.status).toBe(200);
        expect(metrics.headers.get('content-type')).toContain('text/plain');
        const text = await metrics.text();
        expect(text).toContain('webhook_lane_slots{lane="fast"} 1000');
        expect(text).toContain('# TYPE webhook_attempts_total counter');
        // Not on the API's port.
        expect((await fetch(`http://127.0.0.1:${env.PORT}/metrics`)).status).not.toBe(200);

        // The running stack registered its search attributes on the dev server.
        const temporal = await connectTemporal(`127.0.0.1:${env.TEMPORAL_PORT}`, 'default', 'unused');
        try {
          expect(await ensureSearchAttributes(temporal.connection, 'default')).toEqual([]);
        } finally {
          await temporal.connection.close();
        }

        // Deliveries never reach the stack's own listeners, though loopback is allowed here: each is
        // refused before connecting (422, not retried), in any spelling of the address.
        const app = async (method: string, path: string, body?: unknown) => {
          const response = await fetch(`http://127.0.0.1:${env.PORT}/app/api${path}`, {
            method,
            headers: { cookie, origin: `http://127.0.0.1:${env.PORT}`, 'content-type': 'application/json' },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          return { status: response.status, body: (await response.json()) as any };
        };
        const targets = [
          `http://127.0.0.1:${env.PORT}/api/v1/me`,
          `http://127.0.0.1:${env.METRICS_PORT}/metrics`,
          `http://127.0.0.1:${env.TEMPORAL_UI_PORT}/api/v1/namespaces/default/workflows`,
          `http://localhost:${env.TEMPORAL_UI_PORT}/`,
          `http://127.0.0.1:${env.TEMPORAL_PORT}/`,
          `http://[::ffff:127.0.0.1]:${env.EMBEDDED_POSTGRES_PORT}/`,
          `http://127.0.0.1:${env.MAIL_CATCHER_UI_PORT}/api/v1/send`,
          `http://localhost:${env.MAIL_CATCHER_SMTP_PORT}/`,
        ];
        const hooks: string[] = [];
        for (const url of targets) {
          const created = await app('POST', '/webhooks', { url, events: ['record.created'] });
          expect(created.status).toBe(201);
          hooks.push(created.body.id);
          const sent = await app('POST', `/webhooks/${created.body.id}/test`, { event: 'record.created' });
          expect(sent.status).toBe(201);
        }
        for (const [index, id] of hooks.entries()) {
          let delivery: any;
          for (let tries = 0; tries < 100; tries++) {
            [delivery] = (await app('GET', `/webhooks/${id}/deliveries`)).body.data;
            if (delivery?.status === 'failed') break;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          // (The target leads the object, so a failure names it.)
          expect({ target: targets[index], ...delivery }).toMatchObject({
            status: 'failed',
            statusCode: 422,
            nextAttemptAt: null,
            // Issue 34, item 7: what any refused loopback address says, nothing that marks the port as
            // the stack's own (the message used to say "is one of the service's own listeners").
            responseMessage: expect.stringMatching(
              /^Not sent: \S+( \(127\.0\.0\.1\)| resolves to \S+, which)? is a loopback address; outbound requests to it are refused unless OUTBOUND_ALLOWED_CIDRS allows it\.$/,
            ),
          });
        }

        expect(processesMentioning(dataDir).length).toBeGreaterThanOrEqual(3); // postgres + temporal + mailpit
        expect(processesMentioning(dataDir).join('\n')).toContain('mailpit');
      } finally {
        // Only while it runs, so an early exit reports its own output instead of ESRCH.
        if (started.child.exitCode === null) process.kill(-started.child.pid!, 'SIGINT');
        // A failed check above still waits for the stop, so the next test finds its ports free.
        await started.exited;
      }
      expect(await started.exited).toBe(0);
      expect(started.output()).toContain('Stopped.');
      expect(processesMentioning(dataDir)).toEqual([]);
      expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    },
    START_TIMEOUT_MS + 60_000,
  );

  it(
    'keeps the data on a second start (no new initialisation, no migrations to apply); with MAIL_URL, no mail catcher',
    async () => {
      const mailUrl = `smtp://mailer:secret@127.0.0.1:${await freePort()}`;
      const started = startMain({ ...env, MAIL_URL: mailUrl });
      try {
        await waitForOutput(started, 'Press Ctrl-C to stop.');
        expect(started.output()).not.toContain('Initialising PostgreSQL');
        expect(started.output()).not.toContain('Applied migrations');
        expect(started.output()).not.toContain('Demo workspace');
        expect((await fetch(`http://127.0.0.1:${env.PORT}/healthz`)).status).toBe(200);
        // The banner names the server without its credentials, and nothing catches mail here.
        expect(started.output()).toContain(`Mail via:         smtp://${new URL(mailUrl).host}`);
        expect(started.output()).not.toContain('mailer:secret');
        expect(started.output()).not.toContain('Mail inbox');
        expect(processesMentioning(dataDir).join('\n')).not.toContain('mailpit');
      } finally {
        if (started.child.exitCode === null) process.kill(-started.child.pid!, 'SIGTERM');
        await started.exited;
      }
      expect(await started.exited).toBe(0);
      expect(processesMentioning(dataDir)).toEqual([]);
    },
    START_TIMEOUT_MS + 60_000,
  );

  it('explains a port already in use in one line, without a stack trace', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(Number(env.PORT), '127.0.0.1', resolve));
    try {
      const started = startMain(env);
      expect(await started.exited).toBe(1);
      expect(started.output().trim()).toBe(
        `Port ${env.PORT} (the API) is already in use. Stop the program using it, or set PORT to a free port.`,
      );
    } finally {
      blocker.close();
    }
    expect(processesMentioning(dataDir)).toEqual([]);
  });

  it('stops at once on a wrong configuration value, naming the variable', async () => {
    const started = startMain({ ...env, TEMPORAL_UI_PORT: 'eighty' });
    expect(await started.exited).toBe(1);
    expect(started.output().trim()).toMatch(/^Invalid configuration: TEMPORAL_UI_PORT [^\n]+$/);
  });
});
