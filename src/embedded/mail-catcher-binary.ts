import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../project-root';

/**
 * Where Mailpit is: MAILPIT_BINARY first, then what `npm run setup` (scripts/setup-mail-catcher.mjs)
 * found or built and recorded in `.mail-catcher.json`; undefined when there is none.
 */
export function mailCatcherBinary(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidate = env.MAILPIT_BINARY || readManifest().mailpit || undefined;
  return candidate && existsSync(candidate) ? candidate : undefined;
}

function readManifest(): { mailpit?: string | null } {
  const file = join(projectRoot(), '.mail-catcher.json');
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
}
