import { Client } from 'pg';

const collapsed = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * Every statement this process sends to PostgreSQL while counting (pg's Client.query: TypeORM's
 * queries, the prepared statements, BEGIN and COMMIT), by its text as `normalise` makes it.
 */
export function statementCounter(normalise: (text: string) => string = collapsed) {
  const counts = new Map<string, number>();
  let on = false;
  const query = Client.prototype.query;
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    if (on) {
      const [first] = args as [string | { text: string }];
      const key = normalise(typeof first === 'string' ? first : first.text);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  const total = () => [...counts.values()].reduce((sum, count) => sum + count, 0);
  return {
    counts,
    set: (counting: boolean) => (on = counting),
    total,
    /** What `work` returns and the statements sent meanwhile (each text once, with their total). */
    during: async <T>(work: () => Promise<T>) => {
      counts.clear();
      on = true;
      try {
        const result = await work();
        return { result, total: total(), statements: [...counts.keys()] };
      } finally {
        on = false;
      }
    },
    restore: () => (Client.prototype.query = query),
  };
}
