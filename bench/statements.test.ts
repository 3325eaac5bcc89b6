import { preparedIn, statementsIn } from './statements';

// Lines as PostgreSQL logs them with log_line_prefix '%a|' and log_statement = 'all'.
const LOG = [
  'crm|LOG:  statement: START TRANSACTION',
  'crm|LOG:  execute <unnamed>: INSERT INTO "records"("id") VALUES ($1)',
  'crm|LOG:  execute crm_0123456789abcdef01234567: WITH completed AS (',
  '         SELECT outcome FROM delivery_attempts',
  'crm|LOG:  execute crm_0123456789abcdef01234567: WITH completed AS (',
  'crm|LOG:  statement: COMMIT',
  'bench-statements|LOG:  statement: SELECT pg_reload_conf()',
  'crm|LOG:  duration: 0.123 ms',
].join('\n');

describe('the statement count read from the PostgreSQL log', () => {
  it('counts every statement, plain or executed, by its first words, and not the bench’s own', () => {
    expect(Object.fromEntries(statementsIn(LOG))).toEqual({
      'START TRANSACTION': 1,
      'INSERT INTO "records"("id") VALUES ($N)': 1,
      'WITH completed AS (': 2,
      COMMIT: 1,
    });
  });

  it('tells the named prepared statements (src/db/prepared.ts) from unnamed ones', () => {
    expect([...preparedIn(LOG)]).toEqual(['WITH completed AS (']);
  });
});
