// BENCHMARKS.md holds the default run and the sections measured apart; each run keeps the others'.
import { keepSections, sectionOf, withSection } from './sections';

const defaultRun = '# Benchmarks\n\nDev server figures.\n\n## Engine\n\nCeilings.\n';

describe('the sections of BENCHMARKS.md measured apart', () => {
  it('is appended when missing and replaced when present, the rest left as it was', () => {
    const once = withSection(defaultRun, '## Topology', '## Topology\n\nFirst run.');
    expect(once).toBe(`${defaultRun}\n## Topology\n\nFirst run.\n`);
    const twice = withSection(once, '## Topology', '## Topology\n\nSecond run.');
    expect(twice).toBe(`${defaultRun}\n## Topology\n\nSecond run.\n`);
  });

  it('survives a default run that rewrites the file, even with sections after it', () => {
    const withAfter = `${defaultRun}\n## Topology\n\nKept.\n\n## Later\n\nText.\n`;
    expect(sectionOf(withAfter, '## Topology')).toBe('## Topology\n\nKept.');
    const rewritten = withSection(
      '# Benchmarks\n\nNew dev server figures.\n',
      '## Topology',
      sectionOf(withAfter, '## Topology'),
    );
    expect(rewritten).toBe('# Benchmarks\n\nNew dev server figures.\n\n## Topology\n\nKept.\n');
    expect(sectionOf(defaultRun, '## Topology')).toBe('');
  });

  it('keeps every section a default run does not measure, and only those the file had', () => {
    const previous = `${defaultRun}\n## Topology\n\nT.\n\n## Fairness\n\nF.\n`;
    const fresh = '# Benchmarks\n\nNew.\n';
    expect(keepSections(fresh, previous, ['## Topology', '## Fairness', '## Log'])).toBe(
      '# Benchmarks\n\nNew.\n\n## Topology\n\nT.\n\n## Fairness\n\nF.\n',
    );
  });
});
