/** What every reducer may need besides its own state and the event. */
export interface ReducerContext {
  ownUserId: number;
  /** milliseconds since the epoch, passed in so reducers stay pure */
  now: number;
}
