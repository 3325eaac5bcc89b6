// BENCHMARKS.md holds the default run and the topology run's section; each run keeps the other's.
import { topologySection, withTopologySection } from './bench';

const defaultRun = '# Benchmarks\n\nDev server figures.\n\n## Engine\n\nCeilings.\n';

describe('the Topology section of BENCHMARKS.md', () => {
  it('is appended when missing and replaced when present, the rest left as it was', () => {
    const once = withTopologySection(defaultRun, '## Topology\n\nFirst run.');
    expect(once).toBe(`${defaultRun}\n## Topology\n\nFirst run.\n`);
    const twice = withTopologySection(once, '## Topology\n\nSecond run.');
    expect(twice).toBe(`${defaultRun}\n## Topology\n\nSecond run.\n`);
  });

  it('survives a default run that rewrites the file, even with sections after it', () => {
    const withAfter = `${defaultRun}\n## Topology\n\nKept.\n\n## Later\n\nText.\n`;
    expect(topologySection(withAfter)).toBe('## Topology\n\nKept.');
    const rewritten = withTopologySection(
      '# Benchmarks\n\nNew dev server figures.\n',
      topologySection(withAfter),
    );
    expect(rewritten).toBe('# Benchmarks\n\nNew dev server figures.\n\n## Topology\n\nKept.\n');
    expect(topologySection(defaultRun)).toBe('');
  });
});
