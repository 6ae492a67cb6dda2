/**
 * JSON text of a value, spliced as it is into a response body (http/route.ts), for large parts
 * that are kept serialized between requests (the people of an organization at /register).
 */
export class RawJson {
  constructor(readonly json: string) {}
  /** anything that serializes the response another way still gets the value */
  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}
