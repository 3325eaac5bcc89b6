// A closed-loop keep-alive HTTP load, run in a worker thread (see load.ts, closedLoop): `concurrency`
// loops each send one request after the other over node:http with a keep-alive Agent, for a
// warm-up and then a measured window. Posts back the count, the window and the latencies.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import type { ClosedLoopOptions, ClosedLoopResult } from './load';

const options = workerData as ClosedLoopOptions;
const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency, scheduling: 'lifo' });
const target = new URL(options.url);
const body = options.body === undefined ? undefined : Buffer.from(options.body, 'utf8');
const headers: Record<string, string> = { ...options.headers };
if (body) headers['content-length'] = String(body.length);

const now = () => performance.timeOrigin + performance.now();

function once(): Promise<number> {
  return new Promise((resolve) => {
    const request = http.request(target, { method: options.method, agent, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', () => resolve(0));
    });
    request.on('error', () => resolve(0));
    request.end(body);
  });
}

async function main(): Promise<void> {
  const startedAt = now();
  const windowStart = startedAt + options.warmupMs;
  const windowEnd = windowStart + options.durationMs;
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let counted = 0;
  const loop = async () => {
    while (now() < windowEnd) {
      const begin = now();
      const status = await once();
      const end = now();
      if (begin >= windowStart && end <= windowEnd) {
        counted++;
        latencies.push(end - begin);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, loop));
  agent.destroy();
  const result: ClosedLoopResult = {
    count: counted,
    seconds: options.durationMs / 1000,
    latencies: Float64Array.from(latencies),
    statuses,
  };
  parentPort!.postMessage(result, [result.latencies.buffer as ArrayBuffer]);
}

void main();
