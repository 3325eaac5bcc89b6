import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../project-root';

// The one-owner rule of the deliveries feature's tables (docs/architecture.md#the-direction-of-imports),
// for what dependency-cruiser cannot see: SQL written as text. Imports of the entities are the
// lint's (deliveries-store-owns-its-tables).
const OWNER = 'src/deliveries/store/';
/** The schema's history: the migrations create and change the tables, and stay as they were. */
const MIGRATIONS = 'src/app/db/migrations/';
/** The tables src/deliveries/store/ alone reads and writes. */
const TABLES = [
  'deliveries',
  'delivery_attempts',
  'delivery_counts',
  'delivery_count_changes',
  'endpoint_states',
  'webhook_send_slots',
  'resend_batches',
  'resend_batch_results',
];
/** SQL that names one of them (the house writes SQL keywords in capitals; prose does not). */
const SQL_ON_DELIVERIES = new RegExp(`\\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\\s+(?:${TABLES.join('|')})\\b`);

function sources(folder: string): string[] {
  return readdirSync(path.join(projectRoot(), folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => `${folder}/${file.split(path.sep).join('/')}`);
}

const productCode = ['src', 'activities', 'workflows'].flatMap(sources);
const sqlOnDeliveries = (file: string) =>
  SQL_ON_DELIVERIES.test(readFileSync(path.join(projectRoot(), file), 'utf8'));

test(`no file outside src/deliveries/store writes SQL on ${TABLES.join(', ')}`, () => {
  const outside = productCode.filter((file) => !file.startsWith(OWNER) && !file.startsWith(MIGRATIONS));
  expect(outside.filter(sqlOnDeliveries)).toEqual([]);
});

test('the check sees the SQL the owner writes (it is not blind)', () => {
  const owner = productCode.filter((file) => file.startsWith(OWNER));
  expect(owner.filter(sqlOnDeliveries)).toEqual(
    expect.arrayContaining([
      'src/deliveries/store/deliveries.repository.ts',
      'src/deliveries/store/delivery-attempts.repository.ts',
      'src/deliveries/store/dispatched-deliveries.repository.ts',
      'src/deliveries/store/held-deliveries.repository.ts',
      'src/deliveries/store/delivery-counts.repository.ts',
      'src/deliveries/store/endpoint-states.repository.ts',
      'src/deliveries/store/send-slots.repository.ts',
      'src/deliveries/store/resend-batches.repository.ts',
    ]),
  );
});
