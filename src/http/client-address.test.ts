import type { AddressInfo } from 'node:net';
import { createLogger } from '../logger';
import { createBaseApp } from './base-app';

/** The client's address as the sign-in throttle and the registration limit count it. */
describe("the client's address behind a trusted proxy", () => {
  async function addressSeen(trustProxy: boolean, forwardedFor: string): Promise<string> {
    const app = createBaseApp({ logger: createLogger('silent'), bodyLimitKb: 16, trustProxy });
    app.use((ctx) => (ctx.body = { ip: ctx.ip }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
        headers: { 'x-forwarded-for': forwardedFor },
      });
      return ((await response.json()) as { ip: string }).ip;
    } finally {
      server.close();
    }
  }

  it('is the entry the proxy added (the last), not one the client wrote before it', async () => {
    expect(await addressSeen(true, '203.0.113.9, 198.51.100.7')).toBe('198.51.100.7');
    expect(await addressSeen(true, '198.51.100.7')).toBe('198.51.100.7');
  });

  it('is the connection itself when no proxy is trusted', async () => {
    expect(await addressSeen(false, '203.0.113.9')).toMatch(/127\.0\.0\.1/);
  });
});
