import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mailCatcherBinary } from '../../src/embedded/mail-catcher-binary';
import { projectRoot } from '../../src/project-root';
import { eventually } from '../helpers/eventually';
import { freePort } from '../helpers/ports';

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * A server started beside the service or a test (src/embedded/server-child.ts) dies with the process
 * that started it, even when that process is killed and runs no exit hook: no catcher or Temporal
 * server is left behind by an interrupted `npm start` or Jest run.
 */
describe('servers started beside us', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'crm-server-children-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('a mail catcher stops when the process that started it is killed (SIGKILL)', async () => {
    const smtpPort = await freePort();
    const options = {
      binary: mailCatcherBinary(),
      dataDir,
      smtpPort,
      uiPort: await freePort(),
      keepMessages: false,
    };
    const starter = spawn(
      process.execPath,
      [
        '-e',
        `require(${JSON.stringify(join(projectRoot(), 'dist', 'src', 'embedded', 'mail-catcher.js'))})` +
          `.startMailCatcher(${JSON.stringify(options)}).then(() => console.log('started'));` +
          'setInterval(() => undefined, 1000);',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        starter.stdout.on('data', (chunk) => String(chunk).includes('started') && resolve());
        starter.once('exit', (code) => reject(new Error(`the starter exited (${code})`)));
      });
      expect(await accepts(smtpPort)).toBe(true);
      starter.kill('SIGKILL');
      await eventually(async () => !(await accepts(smtpPort)), 'the catcher stopped with its parent', 10_000);
    } finally {
      starter.kill('SIGKILL');
    }
  });
});
