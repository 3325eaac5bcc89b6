import { readSettings } from './settings';

describe('fault run settings', () => {
  it('writes 600 against the topology, so its three faults fall within the writes', () => {
    expect(readSettings([], {}).writes).toBe(300);
    expect(readSettings(['--topology'], {}).writes).toBe(600);
    expect(readSettings([], { FAULTS_STACK: 'topology' }).writes).toBe(600);
  });

  it('keeps a number given by flag or environment, and its bounds', () => {
    expect(readSettings(['--topology', '--writes', '200'], {}).writes).toBe(200);
    expect(readSettings([], { FAULTS_STACK: 'topology', FAULTS_WRITES: '250' }).writes).toBe(250);
    expect(readSettings(['--topology', '--issue-scale'], {}).writes).toBe(1000);
    expect(() => readSettings(['--topology', '--writes', '5'], {})).toThrow(/--writes/);
    expect(() => readSettings(['--topology', '--writes', 'x'], {})).toThrow(/--writes/);
  });
});
