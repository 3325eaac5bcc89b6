#!/usr/bin/env node
// Finds or builds the two Temporal binaries this project runs, without temporal.download:
//   - the Temporal CLI (dev server + Web UI) for `npm start`,
//   - the Java time-skipping test server (behind a wrapper script) for `npm test`.
// Idempotent: results are cached outside the repository; a second run only checks the cache.
// `--temporal-server <version>` instead finds or builds the real Temporal server and its SQL
// schema tool for `npm run topology` (bench/topology/), and prints the folder on its last line.
// Resolution order for each binary is documented in README.md ("Temporal binaries and the mail catcher").
// Nothing here fails the install: when a binary cannot be found or built, the program falls back
// to the Temporal SDK's own download at run time (which needs the internet).
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { connect, createServer } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onPath, runWithProgress as runWithProgressLogged } from './setup-helpers.mjs';

export const CLI_VERSION = 'v1.5.1';
export const TEST_SERVER_VERSION = '1.38.0';

const here = dirname(fileURLToPath(import.meta.url));

export function cacheDir() {
  if (process.env.TEMPORAL_CACHE_DIR) return process.env.TEMPORAL_CACHE_DIR;
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'crm-webhooks', 'temporal');
}

export const cachedCliPath = () => join(cacheDir(), `cli-${CLI_VERSION}`, 'temporal');
export const cachedTestServerPath = () =>
  join(cacheDir(), `test-server-${TEST_SERVER_VERSION}`, 'temporal-test-server');

function log(message) {
  process.stdout.write(`[setup-temporal] ${message}\n`);
}

const runWithProgress = (...args) => runWithProgressLogged(log, ...args);

async function ensureCli() {
  if (process.env.TEMPORAL_CLI) {
    log(`Temporal CLI from TEMPORAL_CLI: ${process.env.TEMPORAL_CLI}`);
    return process.env.TEMPORAL_CLI;
  }
  const fromPath = onPath('temporal');
  if (fromPath) {
    log(`Temporal CLI on PATH: ${fromPath}`);
    return fromPath;
  }
  const cached = cachedCliPath();
  if (existsSync(cached)) {
    log(`Temporal CLI cached: ${cached}`);
    return cached;
  }
  if (!onPath('go')) {
    log('No Temporal CLI and no Go toolchain: `npm start` will use the Temporal SDK download.');
    return undefined;
  }
  // v1.5.1 is the last tag whose go.mod has no replace directive, so `go install` works.
  const staging = `${dirname(cached)}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  log(`Building the Temporal CLI ${CLI_VERSION} with go install (first run only; a few minutes)…`);
  const result = await runWithProgress(
    'go install temporal',
    'go',
    ['install', `github.com/temporalio/cli/cmd/temporal@${CLI_VERSION}`],
    { env: { ...process.env, GOBIN: staging, GOFLAGS: '-mod=mod' } },
  );
  if (!result.ok || !existsSync(join(staging, 'temporal'))) {
    log(`go install failed; falling back to the SDK download at run time.\n${result.output.slice(-2000)}`);
    return undefined;
  }
  rmSync(dirname(cached), { recursive: true, force: true });
  renameSync(staging, dirname(cached));
  log(`Temporal CLI built: ${cached}`);
  return cached;
}

const JAVA_FLAGS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss512k';
/** The classes the test server loads at start, archived once (AppCDS; see ensureClassArchive). */
const CLASS_ARCHIVE = 'test-server.jsa';
const testServerClassPath = (dir) => `${join(dir, 'lib')}/*`;

function writeTestServerWrapper(dir) {
  // `exec` so the SDK's SIGKILL at teardown reaches the JVM itself (otherwise teardown hangs);
  // C1-only JIT, the serial GC and the class archive make the JVM accept connections within the
  // SDK's 5 s limit on a busy 2-core machine. A JVM that cannot use the archive (another Java)
  // says so on stderr and starts without it.
  const wrapper = join(dir, 'temporal-test-server');
  const archive = join(dir, CLASS_ARCHIVE);
  // Written beside and renamed: a test run may be starting the wrapper while setup runs.
  const partial = `${wrapper}.partial`;
  writeFileSync(
    partial,
    [
      '#!/bin/sh',
      '# Runs the Temporal time-skipping test server; the only argument is the port.',
      `archive='${archive}'`,
      'cds=""',
      '[ -f "$archive" ] && cds="-XX:SharedArchiveFile=$archive"',
      `exec java $cds ${JAVA_FLAGS} -cp '${testServerClassPath(dir)}' io.temporal.testserver.TestServer "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(partial, 0o755);
  renameSync(partial, wrapper);
  return wrapper;
}

/**
 * Archives the classes the test server loads until it accepts connections (AppCDS, Java 13+):
 * measured at load 15 on 2 cores, a start then takes 0.6 s of CPU instead of 1.8 s and answers in
 * 3-5 s instead of 12-15 s. Every test file with a worker starts one. Best effort: without the
 * archive the wrapper starts the JVM as before.
 */
async function ensureClassArchive(dir) {
  const archive = join(dir, CLASS_ARCHIVE);
  if (existsSync(archive) || !onPath('java')) return;
  log("Archiving the test server's start-up classes (first run only; a few seconds)…");
  const partial = `${archive}.partial`;
  rmSync(partial, { force: true });
  const port = await new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
  const java = spawn(
    'java',
    [
      `-XX:ArchiveClassesAtExit=${partial}`,
      ...JAVA_FLAGS.split(' '),
      '-cp',
      testServerClassPath(dir),
      'io.temporal.testserver.TestServer',
      String(port),
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise((resolve) => java.once('exit', resolve));
  const answers = () =>
    new Promise((resolve) => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && java.exitCode === null && !(await answers())) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  java.kill('SIGTERM'); // the archive is written as the JVM exits
  await exited;
  if (existsSync(partial) && statSync(partial).size > 0) {
    renameSync(partial, archive);
    log(`Test server class archive: ${archive}`);
  } else {
    log("Could not archive the test server's classes; it starts without the archive.");
  }
}

async function ensureTestServer() {
  if (process.env.TEMPORAL_TEST_SERVER) {
    log(`Test server from TEMPORAL_TEST_SERVER: ${process.env.TEMPORAL_TEST_SERVER}`);
    return process.env.TEMPORAL_TEST_SERVER;
  }
  const cached = cachedTestServerPath();
  if (existsSync(cached)) {
    // Caches made before the class archive get it (and the wrapper that uses it) here.
    await ensureClassArchive(dirname(cached));
    writeTestServerWrapper(dirname(cached));
    log(`Test server cached: ${cached}`);
    return cached;
  }
  if (!onPath('mvn') || !onPath('java')) {
    log('No Maven or Java: tests will use the Temporal SDK download of the test server.');
    return undefined;
  }
  const target = dirname(cached);
  const staging = `${target}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  log(`Fetching io.temporal:temporal-test-server:${TEST_SERVER_VERSION} from Maven Central…`);
  const result = await runWithProgress(
    'mvn dependency:copy-dependencies',
    'mvn',
    [
      '-q',
      '-B',
      '-f',
      join(here, 'temporal-test-server', 'pom.xml'),
      'dependency:copy-dependencies',
      '-DincludeScope=runtime',
      `-DoutputDirectory=${join(staging, 'lib')}`,
    ],
    {},
  );
  const jars = existsSync(join(staging, 'lib')) ? readdirSync(join(staging, 'lib')) : [];
  if (!result.ok || !jars.some((jar) => jar.startsWith('temporal-test-server'))) {
    log(`Maven fetch failed; tests will use the SDK download.\n${result.output.slice(-2000)}`);
    return undefined;
  }
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
  await ensureClassArchive(target);
  const wrapper = writeTestServerWrapper(target);
  log(`Test server ready: ${wrapper}`);
  return wrapper;
}

function checkCli(path) {
  const version = spawnSync(path, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) log(`warning: ${path} --version failed: ${version.stderr}`);
}

/** The Go module's own SQL schemas, copied beside the binaries (the module cache may be cleaned). */
const SERVER_SCHEMA = join('schema', 'postgresql', 'v12');

function serverReady(dir) {
  return ['server', 'sql', SERVER_SCHEMA].every((name) => existsSync(join(dir, name)));
}

/** Copies the PostgreSQL schemas of go.temporal.io/server@version into `dir`, writable. */
function copyServerSchema(version, dir) {
  const found = spawnSync('go', ['mod', 'download', '-json', `go.temporal.io/server@${version}`], {
    encoding: 'utf8',
    env: { ...process.env, GOFLAGS: '-mod=mod' },
  });
  if (found.status !== 0) throw new Error(`go mod download failed: ${found.stderr || found.stdout}`);
  const moduleDir = JSON.parse(found.stdout).Dir;
  const target = join(dir, SERVER_SCHEMA);
  cpSync(join(moduleDir, SERVER_SCHEMA), target, { recursive: true });
  // The module cache is read-only; the copy must not be, or the cache could not be replaced.
  const makeWritable = (path) => {
    chmodSync(path, statSync(path).isDirectory() ? 0o755 : 0o644);
    if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) makeWritable(join(path, entry));
  };
  makeWritable(join(dir, 'schema'));
}

/**
 * The Temporal server and its SQL tool (`go.temporal.io/server/cmd/server`, `.../cmd/tools/sql`)
 * at `version`, with the PostgreSQL schemas, in `<cache>/server-<version>/`. Built with go install
 * on the first run (about 4 minutes on 2 cores); there is no download fallback.
 */
async function ensureServer(version) {
  const target = join(cacheDir(), `server-${version}`);
  if (serverReady(target)) {
    log(`Temporal server ${version} cached: ${target}`);
    return target;
  }
  if (!onPath('go')) throw new Error('The Temporal server is built with Go (1.26+), which is not on PATH.');
  if (existsSync(join(target, 'server')) && existsSync(join(target, 'sql'))) {
    log(`Copying the PostgreSQL schemas of Temporal server ${version} into ${target}…`);
    copyServerSchema(version, target);
    return target;
  }
  const staging = `${target}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  log(
    `Building the Temporal server ${version} and its SQL tool with go install (first run only; ~4 minutes)…`,
  );
  const result = await runWithProgress(
    'go install temporal server',
    'go',
    [
      'install',
      `go.temporal.io/server/cmd/server@${version}`,
      `go.temporal.io/server/cmd/tools/sql@${version}`,
    ],
    { env: { ...process.env, GOBIN: staging, GOFLAGS: '-mod=mod' } },
  );
  if (!result.ok || !existsSync(join(staging, 'server')) || !existsSync(join(staging, 'sql')))
    throw new Error(`go install failed:\n${result.output.slice(-2000)}`);
  copyServerSchema(version, staging);
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
  log(`Temporal server built: ${target}`);
  return target;
}

const serverFlag = process.argv.indexOf('--temporal-server');
if (serverFlag !== -1) {
  const version = process.argv[serverFlag + 1];
  if (!version?.startsWith('v')) throw new Error('usage: setup-temporal.mjs --temporal-server v1.31.0');
  try {
    process.stdout.write(`${await ensureServer(version)}\n`);
    process.exit(0);
  } catch (error) {
    process.stderr.write(`[setup-temporal] ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

// The program reads this manifest (src/temporal/binaries.ts); a missing entry means "use the
// SDK's own download". Environment variables still win at run time.
export const manifestPath = join(here, '..', '.temporal-binaries.json');

const cli = await ensureCli();
if (cli) checkCli(cli);
const testServer = await ensureTestServer();
writeFileSync(
  manifestPath,
  JSON.stringify({ cli: cli ?? null, testServer: testServer ?? null }, null, 2) + '\n',
);
