import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const postgres = (globalThis as { __testPostgres?: { stop: () => Promise<void>; dataDir: string } })
    .__testPostgres;
  if (!postgres) return;
  await postgres.stop();
  rmSync(postgres.dataDir, { recursive: true, force: true });
}
