#!/usr/bin/env node
// Finds or builds Mailpit, the local mail catcher of the embedded stack (docs/mail.md): an SMTP
// server with an inbox page and a JSON API, one Go binary. In this order: the MAILPIT_BINARY
// environment variable → `mailpit` on PATH → the cached build → `go install` into the cache
// (about 6 minutes cold on 2 busy cores). Idempotent: a second run only checks the cache.
// Nothing here fails the install: without Go, `npm start` runs without a catcher (set MAIL_URL, or
// put `mailpit` on PATH) and the mail tests say what is missing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onPath, runWithProgress } from './setup-helpers.mjs';

export const MAILPIT_VERSION = 'v1.33.1';

const here = dirname(fileURLToPath(import.meta.url));

export function cacheDir() {
  if (process.env.MAIL_CATCHER_CACHE_DIR) return process.env.MAIL_CATCHER_CACHE_DIR;
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'crm-webhooks', 'mailpit');
}

export const cachedMailpitPath = () => join(cacheDir(), `mailpit-${MAILPIT_VERSION}`, 'mailpit');

function log(message) {
  process.stdout.write(`[setup-mail-catcher] ${message}\n`);
}

async function ensureMailpit() {
  if (process.env.MAILPIT_BINARY) {
    log(`Mailpit from MAILPIT_BINARY: ${process.env.MAILPIT_BINARY}`);
    return process.env.MAILPIT_BINARY;
  }
  const fromPath = onPath('mailpit');
  if (fromPath) {
    log(`Mailpit on PATH: ${fromPath}`);
    return fromPath;
  }
  const cached = cachedMailpitPath();
  if (existsSync(cached)) {
    log(`Mailpit cached: ${cached}`);
    return cached;
  }
  if (!onPath('go')) {
    log('No Mailpit and no Go toolchain: `npm start` runs without a mail catcher (docs/mail.md).');
    return undefined;
  }
  const staging = `${dirname(cached)}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  log(`Building Mailpit ${MAILPIT_VERSION} with go install (first run only; a few minutes)…`);
  const result = await runWithProgress(
    log,
    'go install mailpit',
    'go',
    ['install', `github.com/axllent/mailpit@${MAILPIT_VERSION}`],
    { env: { ...process.env, GOBIN: staging, GOFLAGS: '-mod=mod' } },
  );
  if (!result.ok || !existsSync(join(staging, 'mailpit'))) {
    log(`go install failed; \`npm start\` runs without a mail catcher.\n${result.output.slice(-2000)}`);
    return undefined;
  }
  rmSync(dirname(cached), { recursive: true, force: true });
  renameSync(staging, dirname(cached));
  log(`Mailpit built: ${cached}`);
  return cached;
}

function checkMailpit(path) {
  const version = spawnSync(path, ['version', '--no-release-check'], { encoding: 'utf8' });
  if (version.status !== 0) log(`warning: ${path} version failed: ${version.stderr}`);
}

// The program reads this manifest (src/embedded/mail-catcher-binary.ts); a null entry means "no
// catcher". MAILPIT_BINARY still wins at run time.
export const manifestPath = join(here, '..', '.mail-catcher.json');

const mailpit = await ensureMailpit();
if (mailpit) checkMailpit(mailpit);
writeFileSync(manifestPath, JSON.stringify({ mailpit: mailpit ?? null }, null, 2) + '\n');
