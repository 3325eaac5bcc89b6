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

  it('reads slow:RATE[@MS] as a receiver that answers well after MS (4.9 s unless said), and fast:RATE', () => {
    expect(parseScenario('slow:50')).toEqual({ name: 'slow:50', mode: 'slow', rate: 50 });
    expect(parseScenario('slow:50@1000')).toEqual({
      name: 'slow:50@1000',
      mode: 'slow',
      rate: 50,
      answerMs: 1000,
    });
    expect(parseScenario('fast:50')).toEqual({ name: 'fast:50', mode: 'fast', rate: 50 });
    expect(() => parseScenario('slow:x')).toThrow(/slow:N\[@MS\]/);
  });

  it("reads the floods of issue 34: mcp-batch:N, app-flood:N and workspaces:N, N requests in A's flight", () => {
    expect(parseScenario('flood:32')).toEqual({ name: 'flood:32', mode: 'none', flood: 32 });
    expect(parseScenario('mcp-batch:8')).toEqual({
      name: 'mcp-batch:8',
      mode: 'none',
      flood: 8,
      floodKind: 'mcp-batch',
    });
    expect(parseScenario('app-flood:32').floodKind).toBe('app');
    expect(parseScenario('workspaces:32').floodKind).toBe('workspaces');
    expect(() => parseScenario('app-flood:x')).toThrow(/expected e.g. hang:50/);
  });
});
