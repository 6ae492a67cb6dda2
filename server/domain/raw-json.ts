/**
 * JSON text of a value, spliced as it is into a response body (http/route.ts), for large parts
 * that are kept serialized between requests (the people of an organization at /register).
 */
export class RawJson {
  /**
   * `bytes`: the same text as UTF-8, when the holder keeps it too; several MB are then copied
   * into the body rather than encoded again for every response.
   */
  constructor(
    readonly json: string,
    private encoded?: Buffer,
    /**
     * The text's UTF-8 as deflate pieces (domain/deflate-pieces.ts), when the holder keeps them
     * compressed: a gzip answer then copies them in instead of compressing the text again.
     */
    readonly deflated?: () => Promise<Buffer[]>,
  ) {}

  /** the text as UTF-8 */
  bytes(): Buffer {
    return (this.encoded ??= Buffer.from(this.json, 'utf8'));
  }

  /** anything that serializes the response another way still gets the value */
  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}
