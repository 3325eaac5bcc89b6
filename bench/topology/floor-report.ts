// The topology's delivery path against the engine floor on the same Temporal server and PostgreSQL:
// the lines of the `## Topology` section that say how much of a delivery's cost is the engine's.
import { cpuMsPer } from '../cpu';
import { num, ms, table } from '../stats';
import type { TopologyFloor } from './floor';
import type { ClosedLoopRun } from './measure';
import { byRole } from './scale-out';

const both = (path: number, floor: number) => `${path.toFixed(1)} / ${floor.toFixed(1)} ms`;

export function renderTopologyFloor(loop: ClosedLoopRun | undefined, floor: TopologyFloor): string[] {
  const floorRoles = byRole(floor.cpu, floor.postgres);
  const floorRate = floor.report.rate;
  const floorCost = {
    engine: cpuMsPer(floorRoles['Temporal server'], floorRate),
    engineDb: cpuMsPer(floorRoles['PostgreSQL: Temporal'], floorRate),
    process: cpuMsPer(floor.engineProcess, floorRate),
  };
  const floorTotal = floorCost.engine + floorCost.engineDb + floorCost.process;
  const lines = [
    '',
    `Engine floor on this Temporal server (the delivery's engine shape, its attempt a no-op: bench/engine.ts), ` +
      `${floor.report.concurrency} in flight: ${num(floorRate)} workflows/s (p50 ${ms(floor.report.latency.p50)}; ` +
      `${floor.report.starts?.eager ?? 0} of ${floor.report.starts?.total ?? 0} started eagerly, ${floor.report.failed} failed, ` +
      `${floor.report.unfinished ?? 'unknown'} not completed).`,
  ];
  if (!loop) return lines;
  const roles = byRole(loop.cpu, loop.postgres);
  const path = {
    engine: cpuMsPer(roles['Temporal server'], loop.rate),
    engineDb: cpuMsPer(roles['PostgreSQL: Temporal'], loop.rate),
    process: cpuMsPer(roles.APIs + roles.workers, loop.rate),
    serviceDb: cpuMsPer(roles['PostgreSQL: service'] + roles['PostgreSQL: other'], loop.rate),
  };
  const pathTotal = path.engine + path.engineDb + path.process + path.serviceDb;
  return [
    ...lines,
    '',
    `CPU per delivery of the closed loop at ${loop.inFlight} in flight (${num(loop.rate)}/s) against CPU per floor ` +
      "workflow (path / floor); the process is the APIs and workers on the path's side, the floor's worker and " +
      `client on the other. Path ÷ floor: ${num(loop.rate / Math.max(floorRate, 0.001), 2)} of the rate, ` +
      `${num(pathTotal / Math.max(floorTotal, 0.001), 2)}× the CPU:`,
    '',
    table(
      ['Temporal server', 'PostgreSQL: Temporal', 'process', 'PostgreSQL: service', 'total', 'path − floor'],
      [
        [
          both(path.engine, floorCost.engine),
          both(path.engineDb, floorCost.engineDb),
          both(path.process, floorCost.process),
          both(path.serviceDb, 0),
          both(pathTotal, floorTotal),
          `${(pathTotal - floorTotal).toFixed(1)} ms`,
        ],
      ],
    ),
  ];
}
