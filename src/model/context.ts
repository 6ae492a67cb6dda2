/** What every reducer may need besides its own state and the event. */
export interface ReducerContext {
  ownUserId: number;
  /** milliseconds since the epoch, passed in so reducers stay pure */
  now: number;
  /**
   * Whether a stream conversation is muted for the user (a wildcard mention there is no
   * mention); absent means nothing is muted.
   */
  isMutedConversation?: (streamId: number, topic: string) => boolean;
}
