import { createServer } from 'node:net';
import { listeningPorts } from './listening-ports';

describe('listeningPorts', () => {
  it('names the ports this process listens on, and none of a process that is not there', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      if (process.platform === 'linux') expect(listeningPorts(process.pid)).toContain(port);
      expect(listeningPorts(2 ** 22 + 7)).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    if (process.platform === 'linux') expect(listeningPorts(process.pid)).not.toContain(port);
  });
});
