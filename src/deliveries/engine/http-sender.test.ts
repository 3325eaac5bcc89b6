import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpSender } from './http-sender';
import { LOOPBACK_CIDRS } from './outbound-guard';

describe('HttpSender over real loopback HTTP', () => {
  let server: Server;
  let url: string;
  const received: { headers: Record<string, unknown>; body: string }[] = [];
  const sut = new HttpSender({ timeoutMs: 300, allowedCidrs: LOOPBACK_CIDRS });

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        received.push({ headers: request.headers, body });
        if (request.url === '/slow') return void setTimeout(() => response.end('late'), 1000);
        if (request.url === '/teapot') {
          response.writeHead(418, "I'm a teapot");
          return void response.end('short and stout');
        }
        response.writeHead(201, 'Created Nicely', { 'Set-Cookie': ['a=1', 'b=2'], 'X-Trace': 't-1' });
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    sut.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends the exact body and headers and reports the status line and the headers, in order', async () => {
    const result = await sut.post(
      `${url}/in`,
      { 'Content-Type': 'application/json', 'X-A': 'é' },
      '{"a":"ü"}',
    );
    expect(result).toMatchObject({ kind: 'response', statusCode: 201, statusText: 'Created Nicely' });
    // Repeated headers stay separate pairs (Set-Cookie), in the order received.
    const headers = result.kind === 'response' ? (result.headers ?? []) : [];
    expect(headers.filter(([name]) => ['Set-Cookie', 'X-Trace'].includes(name))).toEqual([
      ['Set-Cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
      ['X-Trace', 't-1'],
    ]);
    expect(received.at(-1)).toMatchObject({
      body: '{"a":"ü"}',
      headers: { 'x-a': 'é', 'content-length': '10' },
    });
    expect(await sut.post(`${url}/teapot`, {}, '{}')).toMatchObject({
      kind: 'response',
      statusCode: 418,
      statusText: "I'm a teapot",
    });
  });

  it('reports a receiver slower than the limit as a timeout', async () => {
    expect(await sut.post(`${url}/slow`, {}, '{}')).toEqual({ kind: 'timeout' });
  });

  it('reports a refused connection as a network error', async () => {
    const result = await sut.post('http://127.0.0.1:9/x', {}, '{}');
    expect(result).toMatchObject({ kind: 'network', message: expect.stringContaining('ECONNREFUSED') });
  });

  describe('with nothing allowed (the external-mode default)', () => {
    const guarded = new HttpSender({ timeoutMs: 300 });
    afterAll(() => guarded.close());

    it.each([
      ['a loopback address', () => `${url}/guarded`, /^Not sent: 127\.0\.0\.1 is a loopback address;/],
      [
        'a mapped loopback address',
        () => url.replace('127.0.0.1', '[::ffff:127.0.0.1]'),
        /^Not sent: ::ffff:7f00:1 \(127\.0\.0\.1\) is a loopback address;/,
      ],
      [
        'a name resolving to loopback (checked on the resolved address)',
        () => url.replace('127.0.0.1', 'localhost'),
        /^Not sent: localhost resolves to (127\.0\.0\.1|::1), which is a loopback address;/,
      ],
      [
        'the same over https (refused before the handshake)',
        () => url.replace('http://127.0.0.1', 'https://localhost'),
        /^Not sent: localhost resolves to/,
      ],
      ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/', /is a link-local address/],
    ])('refuses %s without connecting', async (_, target, message) => {
      const before = received.length;
      const result = await guarded.post(target(), {}, '{}');
      expect(result).toEqual({ kind: 'refused', message: expect.stringMatching(message) });
      expect(received.length).toBe(before);
    });
  });

  describe("the service's own listeners, with loopback allowed (the embedded default)", () => {
    let own: HttpSender;
    beforeAll(() => {
      const port = Number(new URL(url).port);
      // The test receiver plays one of the stack's own listeners (say, the Temporal Web UI).
      own = new HttpSender({
        timeoutMs: 300,
        allowedCidrs: LOOPBACK_CIDRS,
        ownListeners: [{ name: 'the Temporal Web UI', address: '127.0.0.1', port }],
      });
    });
    afterAll(() => own.close());

    const refusedLoopback = (subject: string) =>
      `Not sent: ${subject} is a loopback address; outbound requests to it are refused unless OUTBOUND_ALLOWED_CIDRS allows it.`;

    it.each([
      ['its address', () => `${url}/workflows/terminate`, '127.0.0.1'],
      ['another loopback address', () => url.replace('127.0.0.1', '127.0.0.2'), '127.0.0.2'],
      [
        'a name resolving to it',
        () => url.replace('127.0.0.1', 'localhost'),
        ['localhost resolves to 127.0.0.1, which', 'localhost resolves to ::1, which'],
      ],
      [
        'a mapped form of it',
        () => url.replace('127.0.0.1', '[::ffff:127.0.0.1]'),
        '::ffff:7f00:1 (127.0.0.1)',
      ],
      ['its decimal form', () => url.replace('127.0.0.1', '2130706433'), '127.0.0.1'],
    ])('refuses %s without connecting, whatever the allow-list says', async (_, target, subjects) => {
      const before = received.length;
      const result = await own.post(target(), {}, '{}');
      // Issue 34, item 7: the words any refused loopback address gets, without the port and without
      // "own listener", so failure messages do not map which loopback ports are the stack's.
      // (A name may resolve to either loopback address first.)
      const messages = [subjects].flat().map(refusedLoopback);
      expect(result).toEqual({ kind: 'refused', message: expect.any(String) });
      expect(messages).toContain((result as { message: string }).message);
      expect(received.length).toBe(before);
    });

    it('says of an own listener exactly what a refused loopback address says where loopback is not allowed', async () => {
      const guarded = new HttpSender({ timeoutMs: 300 });
      try {
        const ownAnswer = await own.post(`${url}/x`, {}, '{}');
        const elsewhere = await guarded.post('http://127.0.0.1:9/x', {}, '{}');
        expect(ownAnswer).toEqual(elsewhere);
      } finally {
        guarded.close();
      }
    });

    it('says the same of two different own listeners', async () => {
      const port = Number(new URL(url).port);
      const two = new HttpSender({
        timeoutMs: 300,
        allowedCidrs: LOOPBACK_CIDRS,
        ownListeners: [
          { name: 'the API', address: '127.0.0.1', port },
          { name: 'PostgreSQL', address: '127.0.0.1', port: port + 1 },
        ],
      });
      try {
        const first = await two.post(`http://127.0.0.1:${port}/`, {}, '{}');
        const second = await two.post(`http://127.0.0.1:${port + 1}/`, {}, '{}');
        expect(first).toEqual({ kind: 'refused', message: refusedLoopback('127.0.0.1') });
        expect(second).toEqual(first);
      } finally {
        two.close();
      }
    });

    it('still reaches another port on loopback (a receiver of the developer)', async () => {
      const other = createServer((_request, response) => response.end('ok'));
      await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
      try {
        const result = await own.post(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`, {}, '{}');
        expect(result).toMatchObject({ kind: 'response', statusCode: 200 });
      } finally {
        await new Promise((resolve) => other.close(resolve));
      }
    });
  });
});
