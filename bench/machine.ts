// The machine a bench ran on, for the record beside its figures.
import { readFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import type { Machine } from './report/report';

export function machine(): Machine {
  let cpuModel = cpus()[0]?.model ?? 'unknown';
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    if (line) cpuModel = line.split(':')[1]!.trim();
  } catch {
    // not Linux: os.cpus() is fine
  }
  return {
    cpuModel,
    cores: cpus().length,
    memoryGiB: totalmem() / 1024 ** 3,
    node: process.version,
    kernel: `Linux ${release()}`,
    date: new Date().toISOString(),
    loadAverage: loadavg()
      .map((value) => value.toFixed(2))
      .join(', '),
  };
}
