import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../project-root';

export interface TemporalBinaries {
  /** The Temporal CLI (`temporal server start-dev`), or undefined to use the SDK's download. */
  cli?: string;
  /** The time-skipping test server wrapper, or undefined to use the SDK's download. */
  testServer?: string;
}

/**
 * Where the Temporal binaries are: environment variables first, then what `npm run setup`
 * (scripts/setup-temporal.mjs) found or built and recorded in `.temporal-binaries.json`.
 */
export function temporalBinaries(env: NodeJS.ProcessEnv = process.env): TemporalBinaries {
  const manifest = readManifest();
  const pick = (fromEnv: string | undefined, fromManifest: string | null | undefined) => {
    const candidate = fromEnv || fromManifest || undefined;
    return candidate && existsSync(candidate) ? candidate : undefined;
  };
  return {
    cli: pick(env.TEMPORAL_CLI, manifest.cli),
    testServer: pick(env.TEMPORAL_TEST_SERVER, manifest.testServer),
  };
}

function readManifest(): { cli?: string | null; testServer?: string | null } {
  const file = join(projectRoot(), '.temporal-binaries.json');
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
}
