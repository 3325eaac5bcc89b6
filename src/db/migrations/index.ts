import { Identity1763769600000 } from './1763769600000-identity';

/** Every migration, oldest first. Listed explicitly so the same list runs from src and dist. */
export const migrations = [Identity1763769600000];
