// Summarises V8 CPU profiles (node --cpu-prof) of the API+worker process: self time by function and
// by where the code lives (a node_modules package, a project file, V8/Node internals), optionally
// only inside a time window of the main thread. Also runs alone:
//   node dist/bench/profile-summary.js <dir-with-.cpuprofile-files> [fromSeconds toSeconds]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { table } from './stats';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  thread: string;
  totalMs: number;
  byFunction: { name: string; where: string; ms: number }[];
  byPlace: { place: string; ms: number }[];
}

function placeOf(url: string, functionName: string): string {
  if (!url) {
    if (functionName === '(garbage collector)') return 'V8: garbage collector';
    if (functionName === '(idle)') return '(idle)';
    if (functionName === '(program)') return 'V8/Node native (program)';
    return `native: ${(functionName || '(anonymous)').slice(0, 60)}`;
  }
  const path = url.replace(/^file:\/\//, '');
  if (/workflow-bundle-[0-9a-f]+\.js$/.test(path)) return 'workflow bundle (sandbox)';
  if (path.startsWith('evalmachine')) return 'workflow sandbox (vm)';
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = path.slice(modules + '/node_modules/'.length).split('/');
    return `npm: ${rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  if (path.startsWith('node:')) return `node: ${path.slice(5).split('/')[0]}`;
  const dist = path.indexOf('/dist/');
  if (dist >= 0) return `project: ${path.slice(dist + '/dist/'.length)}`;
  return path;
}

/** Self time per node, within [fromUs, toUs] of the profile's own clock (µs since its start). */
export function summarizeProfile(file: string, window?: { fromMs: number; toMs: number }): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  let t = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    t += delta;
    if (window && (t < window.fromMs * 1000 || t > window.toMs * 1000)) continue;
    const id = profile.samples[i]!;
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  }
  const functions = new Map<string, { name: string; where: string; ms: number }>();
  const places = new Map<string, number>();
  let totalMs = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') continue;
    const place = placeOf(url, functionName);
    const key = `${functionName}@${url}:${lineNumber}`;
    const entry = functions.get(key) ?? {
      name: (functionName || '(anonymous)').slice(0, 60),
      where: `${place.replace(/^(npm|project|node): /, '')}${url ? `:${lineNumber + 1}` : ''}`,
      ms: 0,
    };
    entry.ms += us / 1000;
    functions.set(key, entry);
    places.set(place, (places.get(place) ?? 0) + us / 1000);
    totalMs += us / 1000;
  }
  const thread = /\.(\d+)\.(\d+)\.(\d+)\.cpuprofile$/.exec(file)?.[2] ?? '?';
  return {
    file,
    thread: thread === '0' ? 'main thread' : `worker thread ${thread}`,
    totalMs,
    byFunction: [...functions.values()].sort((a, b) => b.ms - a.ms),
    byPlace: [...places.entries()].map(([place, ms]) => ({ place, ms })).sort((a, b) => b.ms - a.ms),
  };
}

export function profileFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => join(dir, name));
}

export function renderProfileSummary(summary: ProfileSummary, top = 20): string {
  const share = (value: number) => `${((value / summary.totalMs) * 100).toFixed(1)}%`;
  return [
    `${summary.thread}: ${(summary.totalMs / 1000).toFixed(1)} s of CPU samples (${summary.file})`,
    table(
      ['where the code lives', 'self', 'share'],
      summary.byPlace.slice(0, top).map((row) => [row.place, `${row.ms.toFixed(0)} ms`, share(row.ms)]),
    ),
    table(
      ['function', 'where', 'self', 'share'],
      summary.byFunction
        .slice(0, top)
        .map((row) => [row.name, row.where, `${row.ms.toFixed(0)} ms`, share(row.ms)]),
    ),
  ].join('\n\n');
}

if (require.main === module) {
  const [dir, from, to] = process.argv.slice(2);
  if (!dir) {
    process.stderr.write('usage: node dist/bench/profile-summary.js <dir> [fromSeconds toSeconds]\n');
    process.exit(2);
  }
  const window = from && to ? { fromMs: Number(from) * 1000, toMs: Number(to) * 1000 } : undefined;
  for (const file of profileFiles(dir)) {
    process.stdout.write(`${renderProfileSummary(summarizeProfile(file, window))}\n\n`);
  }
}
