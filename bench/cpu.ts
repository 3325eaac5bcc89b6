// CPU accounting from /proc (Linux): which process of the stack used how much CPU between two
// snapshots, the threads of the API+worker process, and the whole machine (other load included).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { wallMs } from './stats';

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Milliseconds of CPU per item (a delivery, a workflow) from % of one core used at `rate` a second. */
export const cpuMsPer = (percent: number, rate: number) => (percent * 10) / Math.max(0.001, rate);

/** Clock ticks per second of /proc's CPU times. */
export const clockTicks = () => CLOCK_TICKS;

interface Stat {
  pid: number;
  ppid: number;
  comm: string;
  /** utime + stime, in clock ticks. */
  ticks: number;
}

function readStat(path: string): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined; // it ended while we looked
  }
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  const rest = text.slice(close + 2).split(' ');
  return {
    pid: Number(text.slice(0, open).trim()),
    comm: text.slice(open + 1, close),
    ppid: Number(rest[1]),
    ticks: Number(rest[11]) + Number(rest[12]),
  };
}

function allProcesses(): Stat[] {
  const found: Stat[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(`/proc/${entry}/stat`);
    if (stat) found.push(stat);
  }
  return found;
}

/** The process and every process below it, now. */
export function processTree(rootPid: number): Stat[] {
  return treeOf(allProcesses(), rootPid);
}

function treeOf(all: Stat[], rootPid: number): Stat[] {
  const children = new Map<number, Stat[]>();
  for (const stat of all) {
    const list = children.get(stat.ppid) ?? [];
    list.push(stat);
    children.set(stat.ppid, list);
  }
  const root = all.find((stat) => stat.pid === rootPid);
  if (!root) return [];
  const tree: Stat[] = [];
  const queue = [root];
  while (queue.length) {
    const next = queue.shift()!;
    tree.push(next);
    queue.push(...(children.get(next.pid) ?? []));
  }
  return tree;
}

/** Processes whose command line mentions `needle` (our temporary directory): a cleanup net. */
export function processesMentioning(needle: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle)) found.push(Number(entry));
    } catch {
      // ended while we looked
    }
  }
  return found;
}

export type Group = 'api+worker' | 'postgresql' | 'temporal' | 'other' | 'bench';
export const GROUPS: Group[] = ['api+worker', 'postgresql', 'temporal', 'bench', 'other'];
export const GROUP_LABELS: Record<Group, string> = {
  'api+worker': 'API + worker (node, dist/src/main.js)',
  postgresql: 'PostgreSQL (all backends)',
  temporal: 'Temporal dev server',
  bench: 'bench (load, receiver, engine worker)',
  other: 'other children',
};

function groupOf(stat: Stat, rootPid: number): Group {
  if (stat.pid === rootPid) return 'api+worker';
  if (stat.comm.startsWith('postgres')) return 'postgresql';
  if (stat.comm.startsWith('temporal')) return 'temporal';
  return 'other';
}

/**
 * Threads of the API+worker process, grouped by what runs on them. Node leaves its own helper
 * threads and worker threads (the worker's workflow sandbox thread) named `node`; the Temporal
 * core SDK (Rust) names its threads tokio-runtime-w, workflow-proces(sing), temporal-…
 */
function threadGroup(name: string, tid: number, pid: number): string {
  if (tid === pid) return 'JS main thread (API, dispatcher, activities)';
  if (name.startsWith('tokio') || name.startsWith('temporal') || name.startsWith('workflow-proc'))
    return 'Temporal core SDK (Rust threads)';
  if (name === 'node' || name.startsWith('libuv') || name.startsWith('V8'))
    return 'other node threads (workflow sandbox worker thread, GC, libuv)';
  return `other threads (${name})`;
}

export interface Snapshot {
  at: number;
  processes: Map<number, { group: Group; ticks: number }>;
  threads: Map<number, { group: string; ticks: number }>;
  /** Every other process on the machine (other people's work), to name what else was busy. */
  others: Map<number, { comm: string; ticks: number }>;
  bench: number;
  machine: { busy: number; total: number; steal: number };
}

/** user nice system idle iowait irq softirq steal; busy leaves out idle, iowait and steal. */
function machineTicks(): { busy: number; total: number; steal: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const values = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = values.reduce((sum, value) => sum + value, 0);
  const steal = values[7] ?? 0;
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busy: total - idle - steal, total, steal };
}

export function snapshot(rootPid: number | undefined): Snapshot {
  const processes = new Map<number, { group: Group; ticks: number }>();
  const threads = new Map<number, { group: string; ticks: number }>();
  const everyone = allProcesses();
  if (rootPid !== undefined) {
    for (const stat of treeOf(everyone, rootPid))
      processes.set(stat.pid, { group: groupOf(stat, rootPid), ticks: stat.ticks });
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${rootPid}/task`);
    } catch {
      // the process ended
    }
    for (const tid of tids) {
      const stat = readStat(`/proc/${rootPid}/task/${tid}/stat`);
      if (stat)
        threads.set(stat.pid, { group: threadGroup(stat.comm, stat.pid, rootPid), ticks: stat.ticks });
    }
  }
  const others = new Map<number, { comm: string; ticks: number }>();
  for (const stat of everyone)
    if (!processes.has(stat.pid) && stat.pid !== process.pid)
      others.set(stat.pid, { comm: stat.comm, ticks: stat.ticks });
  const self = process.cpuUsage();
  return {
    at: wallMs(),
    processes,
    threads,
    others,
    bench: (self.user + self.system) / 1e6,
    machine: machineTicks(),
  };
}

export interface CpuUsage {
  seconds: number;
  /** Per group, in % of one core (200% = both cores of a 2-core machine). */
  groups: Record<Group, number>;
  /** Threads of the API+worker process, in % of one core. */
  threads: Record<string, number>;
  /** The whole machine, in % of one core, whoever used it. */
  machine: number;
  /** What the machine used beyond our processes (other work on this machine), % of one core. */
  foreign: number;
  /** The busiest other processes, e.g. `node 140%`. */
  foreignTop: string[];
  /** Time the hypervisor gave to other guests (steal), % of one core. */
  steal: number;
}

export function cpuBetween(a: Snapshot, b: Snapshot): CpuUsage {
  const seconds = (b.at - a.at) / 1000;
  const groups = Object.fromEntries(GROUPS.map((group) => [group, 0])) as Record<Group, number>;
  for (const [pid, now] of b.processes) {
    const before = a.processes.get(pid)?.ticks ?? 0; // a process that started in between counts whole
    groups[now.group] += ((now.ticks - before) / CLOCK_TICKS / seconds) * 100;
  }
  groups.bench = ((b.bench - a.bench) / seconds) * 100;
  const threads: Record<string, number> = {};
  for (const [tid, now] of b.threads) {
    const before = a.threads.get(tid)?.ticks ?? 0;
    threads[now.group] = (threads[now.group] ?? 0) + ((now.ticks - before) / CLOCK_TICKS / seconds) * 100;
  }
  const cores = (b.machine.total - a.machine.total) / CLOCK_TICKS / seconds;
  const machine = cores > 0 ? ((b.machine.busy - a.machine.busy) / CLOCK_TICKS / seconds) * 100 : 0;
  const ours = GROUPS.reduce((sum, group) => sum + groups[group], 0);
  const others = new Map<string, number>();
  for (const [pid, now] of b.others) {
    const used = ((now.ticks - (a.others.get(pid)?.ticks ?? 0)) / CLOCK_TICKS / seconds) * 100;
    if (used > 0) others.set(now.comm, (others.get(now.comm) ?? 0) + used);
  }
  const foreignTop = [...others.entries()]
    .filter(([, used]) => used >= 5)
    .sort((x, y) => y[1] - x[1])
    .slice(0, 3)
    .map(([comm, used]) => `${comm} ${Math.round(used)}%`);
  const steal = ((b.machine.steal - a.machine.steal) / CLOCK_TICKS / seconds) * 100;
  return { seconds, groups, threads, machine, foreign: Math.max(0, machine - ours), foreignTop, steal };
}

/** CPU ticks of named process trees (a component and its children, e.g. PostgreSQL's backends). */
export interface TreeSnapshot {
  at: number;
  ticks: Record<string, number>;
  machine: { busy: number; total: number; steal: number };
}

export function treeSnapshot(roots: Record<string, number | undefined>): TreeSnapshot {
  const everyone = allProcesses();
  const ticks: Record<string, number> = {};
  for (const [name, pid] of Object.entries(roots))
    ticks[name] = pid === undefined ? 0 : treeOf(everyone, pid).reduce((sum, stat) => sum + stat.ticks, 0);
  return { at: wallMs(), ticks, machine: machineTicks() };
}

/** Per named tree and for the whole machine, in % of one core, between two snapshots. */
export function treeCpuBetween(
  a: TreeSnapshot,
  b: TreeSnapshot,
): { seconds: number; trees: Record<string, number>; machine: number } {
  const seconds = (b.at - a.at) / 1000;
  const trees: Record<string, number> = {};
  for (const [name, now] of Object.entries(b.ticks))
    trees[name] = ((now - (a.ticks[name] ?? 0)) / CLOCK_TICKS / seconds) * 100;
  const machine = ((b.machine.busy - a.machine.busy) / CLOCK_TICKS / seconds) * 100;
  return { seconds, trees, machine };
}
