import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpSender } from './http-sender';

describe('HttpSender over real loopback HTTP', () => {
  let server: Server;
  let url: string;
  const received: { headers: Record<string, unknown>; body: string }[] = [];
  const sut = new HttpSender(300);

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
        response.writeHead(201, 'Created Nicely');
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

  it('sends the exact body and headers and reports the status line', async () => {
    const result = await sut.post(
      `${url}/in`,
      { 'Content-Type': 'application/json', 'X-A': 'é' },
      '{"a":"ü"}',
    );
    expect(result).toEqual({ kind: 'response', statusCode: 201, statusText: 'Created Nicely' });
    expect(received.at(-1)).toMatchObject({
      body: '{"a":"ü"}',
      headers: { 'x-a': 'é', 'content-length': '10' },
    });
    expect(await sut.post(`${url}/teapot`, {}, '{}')).toEqual({
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
});
