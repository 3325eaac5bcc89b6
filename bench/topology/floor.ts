// The engine floor on the topology's own Temporal server (the delivery's engine shape with a no-op
// attempt, bench/engine.ts), so that the topology's delivery path is set against what the same server
// and its PostgreSQL cost a workflow with nothing of ours in it, as the embedded stack's is against
// the dev server's.
import { prepareEngine, type EngineReport } from '../engine';
import { ms, num } from '../stats';
import { componentCpu, cpuLine, type TopologyRun } from './measure';

export interface TopologyFloor {
  report: EngineReport;
  /** % of one core: the components' trees, PostgreSQL by database, and the floor's worker and client. */
  cpu: Record<string, number>;
  postgres: Record<string, number>;
  engineProcess: number;
}

export async function topologyFloor(
  run: TopologyRun,
  options: { concurrency: number; log: (message: string) => void },
): Promise<TopologyFloor> {
  const { topology } = run;
  options.log(`engine floor on the topology's Temporal server: ${options.concurrency} in flight, 2 s + 9 s…`);
  const engine = await prepareEngine({ address: topology.temporal.address, namespace: 'default' });
  try {
    const window = componentCpu(topology);
    let firstSelf = process.cpuUsage();
    const ended = () => ({ ...window.end(), self: process.cpuUsage(firstSelf) });
    let end: ReturnType<typeof ended> | undefined;
    const report = await engine.measure({
      shape: 'floor',
      concurrency: options.concurrency,
      warmupMs: 2000,
      durationMs: 9000,
      // The window's ends, not the check for unfinished workflows after it.
      onWindow: (phase) => {
        if (phase === 'end') end = ended();
        else {
          window.restart();
          firstSelf = process.cpuUsage();
        }
      },
    });
    const { cpu, postgres, self } = end ?? ended();
    // The bench process runs only the floor's worker and client meanwhile (the receiver is idle).
    const engineProcess = ((self.user + self.system) / 1e6 / cpu.seconds) * 100;
    options.log(
      `  ${num(report.rate)} workflows/s, p50 ${ms(report.latency.p50)}, ${report.failed} failed, ` +
        `${report.starts?.eager ?? 0} of ${report.starts?.total ?? 0} started eagerly, ` +
        `${report.unfinished ?? 'unknown'} not completed; CPU ${cpuLine(cpu.trees)}, floor's worker ${Math.round(engineProcess)}%`,
    );
    return { report, cpu: cpu.trees, postgres, engineProcess };
  } finally {
    await engine.close();
  }
}
