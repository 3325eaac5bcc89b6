import { BACKGROUND, databaseOfTitle } from './postgres-cpu';
import { byRole, shapesOf } from './scale-out';

describe('the topology scale-out bench', () => {
  it('reads shapes as APIs x workers, and refuses anything else', () => {
    expect(shapesOf('2x1,2x3, 1x2')).toEqual([
      { apis: 2, workers: 1 },
      { apis: 2, workers: 3 },
      { apis: 1, workers: 2 },
    ]);
    expect(() => shapesOf('2x0')).toThrow(/APIsxWORKERS/);
    expect(() => shapesOf('three')).toThrow(/APIsxWORKERS/);
  });

  it('names the database a PostgreSQL backend serves from its title, background work apart', () => {
    expect(databaseOfTitle('postgres: postgres temporal 127.0.0.1(45678) idle')).toBe('temporal');
    expect(databaseOfTitle('postgres: app crm [local] idle in transaction')).toBe('crm');
    expect(databaseOfTitle('postgres: checkpointer ')).toBe(BACKGROUND);
    expect(databaseOfTitle('postgres: autovacuum launcher')).toBe(BACKGROUND);
    expect(databaseOfTitle('/usr/lib/postgresql/bin/postgres\0-D\0/data\0')).toBe(BACKGROUND);
  });

  it('splits a step’s CPU into roles, PostgreSQL by database, and its background apart', () => {
    const trees = {
      PostgreSQL: 50,
      'Temporal server': 40,
      'API 1': 10,
      'API 2': 12,
      'worker 1': 20,
      'worker 2': 22,
    };
    const postgres = { temporal: 20, temporal_visibility: 5, crm: 15, [BACKGROUND]: 4 };
    const roles = byRole(trees, postgres);
    expect(roles).toEqual({
      APIs: 22,
      workers: 42,
      'Temporal server': 40,
      'PostgreSQL: Temporal': 25,
      'PostgreSQL: service': 15,
      'PostgreSQL: other': 4,
    });
  });
});
