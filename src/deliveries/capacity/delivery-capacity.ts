import type { DataSource } from 'typeorm';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import { EndpointHealth } from './endpoint-health';
import { EndpointStatesRepository, SendSlotsRepository } from '../store';
import { LaneBudget } from './lane-budget';
import { SendThrottle } from './send-throttle';

/** One worker process's delivery capacity: the two lanes' budgets and what it knows of each endpoint. */
export interface DeliveryCapacity {
  fast: LaneBudget;
  slow: LaneBudget;
  health: EndpointHealth;
  /** Each webhook's rate limit, which every attempt passes before the lanes. */
  throttle: SendThrottle;
}

export function createDeliveryCapacity(deps: {
  config: Config;
  dataSource: DataSource;
  logger: Logger;
}): DeliveryCapacity {
  const { config } = deps;
  const slowSlots = config.DELIVERY_SLOW_LANE_SLOTS;
  return {
    fast: new LaneBudget({
      slots: config.DELIVERY_FAST_LANE_SLOTS,
      perWorkspace: config.DELIVERY_FAST_LANE_PER_WORKSPACE,
      workspaceCeiling: config.DELIVERY_FAST_LANE_WORKSPACE_MAX,
      window: {
        initial: config.DELIVERY_FAST_LANE_PER_ENDPOINT,
        ceiling: Math.max(config.DELIVERY_FAST_LANE_PER_ENDPOINT, config.DELIVERY_ENDPOINT_MAX_IN_FLIGHT),
      },
    }),
    // Temporal gives the slow lane's worker its slots and shares them between workspaces: this
    // budget only counts what is in flight.
    slow: LaneBudget.counting(slowSlots),
    health: new EndpointHealth(new EndpointStatesRepository(deps.dataSource.manager), deps.logger),
    throttle: new SendThrottle(new SendSlotsRepository(deps.dataSource.manager), deps.logger),
  };
}
