import { AppError } from '../../shared/app-error';
import { FairShare } from './fair-share';

/** A task that ends when told to. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, task: () => opened };
}

describe('FairShare', () => {
  it("runs a key's requests up to its share at once, the rest in its own line, in order", async () => {
    const sut = new FairShare({ concurrency: 2, queue: 10 });
    const order: string[] = [];
    const gates = [gate(), gate(), gate()];
    const runs = gates.map((g, index) => sut.run('a', async () => (order.push(`a${index}`), g.task())));
    await Promise.resolve();
    expect(sut.load('a')).toEqual({ running: 2, waiting: 1 });
    // Another key does not wait behind a's line.
    await sut.run('b', async () => order.push('b'));
    expect(order).toEqual(['a0', 'a1', 'b']);
    gates[0]!.open();
    await runs[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['a0', 'a1', 'b', 'a2']);
    gates[1]!.open();
    gates[2]!.open();
    await Promise.all(runs);
    expect(sut.load('a')).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses as busy (429 rate_limit with Retry-After) when the line is full, and runs nothing for it', async () => {
    const sut = new FairShare({ concurrency: 1, queue: 1 });
    const first = gate();
    const running = sut.run('a', first.task);
    const waiting = sut.run('a', async () => 'second');
    let ran = false;
    const refused = await sut.run('a', async () => (ran = true)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ kind: 'rate_limit', options: { retryAfterSeconds: 2 } });
    expect(ran).toBe(false);
    first.open();
    await running;
    expect(await waiting).toBe('second');
  });

  it('passes the place on when a request fails', async () => {
    const sut = new FairShare({ concurrency: 1, queue: 5 });
    await expect(sut.run('a', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await sut.run('a', async () => 'next')).toBe('next');
  });
});
