import { configSchema } from '../config';
import { onFreePorts, STACK_PORT_SETTINGS } from './stack-ports';

describe('the embedded stack port settings', () => {
  it('are every port setting of the config', () => {
    const portSettings = Object.keys(configSchema.shape).filter((key) => /(^|_)PORT$/.test(key));
    expect([...STACK_PORT_SETTINGS].sort()).toEqual(portSettings.sort());
  });

  it('each get a port of their own', async () => {
    let next = 40_000;
    const env = await onFreePorts(async () => next++);
    expect(new Set(Object.values(env)).size).toBe(STACK_PORT_SETTINGS.length);
    expect(env.PORT).toBe('40000');
  });
});
