// Workspace A's writes, in a worker thread of their own (see noisyWrites): the noisy workspace is
// another client, so its hundred requests at once must not delay the main thread, where B's writes
// are sent and B's receiver takes its deliveries and notes when they arrived.
import { parentPort, workerData } from 'node:worker_threads';
import { openLoad, recordWriter } from '../load';

export interface WriterThreadOptions {
  baseUrl: string;
  apiKey: string;
  nameFieldId: string;
  rate: number;
  durationMs: number;
}

const options = workerData as WriterThreadOptions;
const writer = recordWriter({
  baseUrl: options.baseUrl,
  apiKey: options.apiKey,
  type: 'deal',
  nameFieldId: options.nameFieldId,
});

void (async () => {
  const load = await openLoad({
    rate: options.rate,
    durationMs: options.durationMs,
    maxInFlight: 2000,
    send: writer.send,
  });
  await load.settled;
  writer.close();
  parentPort!.postMessage({ writes: load.writes });
})();
