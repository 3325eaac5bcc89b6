/** Deliveries a list counts at most: the count stays cheap however long the log grows. */
export const DELIVERY_COUNT_CAP = 1_000;
