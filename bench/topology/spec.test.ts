// The pieces of the topology run that need no Temporal build: its generated configuration.
import { topologyPorts } from './ports';
import { schemaSteps, sqlToolEnv, TEMPORAL_PORT_NAMES, temporalServerEnv } from './spec';
import { postgresEndpoint } from './topology';

const postgres = postgresEndpoint('postgres://postgres:p%40ss@127.0.0.1:54330/crm');

describe('the topology configuration', () => {
  it('reads PostgreSQL from the app URL, the password decoded', () => {
    expect(postgres).toEqual({ host: '127.0.0.1', port: 54330, user: 'postgres', password: 'p@ss' });
  });

  it('gives the Temporal server its PostgreSQL, databases and own ports, bound to loopback', async () => {
    const ports = await topologyPorts({});
    const env = temporalServerEnv({ postgres, dynamicConfigPath: '/repo/dc.yaml', ports: ports.temporal });
    expect(env).toMatchObject({
      DB: 'postgres12',
      POSTGRES_SEEDS: '127.0.0.1',
      DB_PORT: '54330',
      POSTGRES_USER: 'postgres',
      POSTGRES_PWD: 'p@ss',
      DBNAME: 'temporal',
      VISIBILITY_DBNAME: 'temporal_visibility',
      DYNAMIC_CONFIG_FILE_PATH: '/repo/dc.yaml',
      BIND_ON_IP: '127.0.0.1',
      FRONTEND_GRPC_PORT: String(ports.temporal.frontend),
    });
    const used = TEMPORAL_PORT_NAMES.map((name) => ports.temporal[name]);
    expect(new Set(used).size).toBe(used.length);
    // The server stores its membership ports in a smallint column: above 32767 it cannot start.
    for (const port of used) expect(port).toBeLessThan(32768);
  });

  it('makes both databases in three idempotent steps each, from the given schema folder', () => {
    expect(schemaSteps('/cache/schema')).toEqual([
      { database: 'temporal', args: ['create-database'] },
      { database: 'temporal', args: ['setup-schema', '-v', '0.0'] },
      {
        database: 'temporal',
        args: ['update-schema', '-d', '/cache/schema/postgresql/v12/temporal/versioned'],
      },
      { database: 'temporal_visibility', args: ['create-database'] },
      { database: 'temporal_visibility', args: ['setup-schema', '-v', '0.0'] },
      {
        database: 'temporal_visibility',
        args: ['update-schema', '-d', '/cache/schema/postgresql/v12/visibility/versioned'],
      },
    ]);
    expect(sqlToolEnv(postgres)).toEqual({
      SQL_PLUGIN: 'postgres12',
      SQL_HOST: '127.0.0.1',
      SQL_PORT: '54330',
      SQL_USER: 'postgres',
      SQL_PASSWORD: 'p@ss',
    });
  });
});
