// The fairness bench's scenario names.
import { parseScenario } from './scenario';

describe('parseScenario', () => {
  it('reads one webhook scenarios as before', () => {
    expect(parseScenario('hang:100')).toEqual({ name: 'hang:100', mode: 'hang', rate: 100 });
    expect(parseScenario('burst:100')).toEqual({ name: 'burst:100', mode: 'hang', burst: 100 });
  });

  it('reads hang-many:RATExWEBHOOKS as RATE writes a second, each to WEBHOOKS endpoints that never answer', () => {
    expect(parseScenario('hang-many:1x100')).toEqual({
      name: 'hang-many:1x100',
      mode: 'hang',
      rate: 1,
      webhooks: 100,
    });
    expect(() => parseScenario('hang-many:100')).toThrow(/hang-many:RATExWEBHOOKS/);
    expect(() => parseScenario('hang:x')).toThrow(/expected e.g. hang:50/);
  });
});
