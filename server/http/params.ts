import { parseClientJson } from '../domain/client-json.js';
import { invalidParam, missingParam } from '../domain/errors.js';

/**
 * Declarative request parameters. Every endpoint lists its parameters with one of these parsers;
 * the route layer turns the raw strings of the query or body into typed values, reports the
 * missing and malformed ones in the API's envelope, and lists unknown ones in
 * `ignored_parameters_unsupported`.
 */
export class Param<T> {
  constructor(
    readonly parseRaw: (raw: string, name: string) => T,
    readonly required = true,
    readonly fallback?: () => T,
  ) {}

  /** Not required; absent means `undefined`. */
  optional(): Param<T | undefined> {
    return new Param<T | undefined>(this.parseRaw, false, () => undefined);
  }

  /** Not required; absent means `value`. */
  default(value: T): Param<T> {
    return new Param<T>(this.parseRaw, false, () => value);
  }

  parse(raw: string | undefined, name: string): T {
    if (raw === undefined) {
      if (this.required) throw missingParam(name);
      return this.fallback!();
    }
    return this.parseRaw(raw, name);
  }
}

export type ParamSpec = Record<string, Param<any>>;
export type Parsed<S extends ParamSpec> = {
  [K in keyof S]: S[K] extends Param<infer T> ? T : never;
};

const INT_RE = /^-?\d+$/;
/** Ids live in 32-bit integer columns; PostgreSQL refuses larger numbers even in comparisons. */
export const MAX_ID = 2147483647;

function parseInt(raw: string, name: string): number {
  const text = raw.trim();
  if (!INT_RE.test(text)) throw invalidParam(name, `${name} is not an integer`);
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw invalidParam(name, `${name} is too large`);
  return n;
}

function parseBool(raw: string, name: string): boolean {
  switch (raw.trim().toLowerCase()) {
    case 'true':
    case '1':
      return true;
    case 'false':
    case '0':
      return false;
    default:
      throw invalidParam(name, `${name} is not a boolean`);
  }
}

export function parseJson(raw: string, name: string): unknown {
  try {
    return parseClientJson(raw);
  } catch {
    throw invalidParam(name, `Argument "${name}" is not valid JSON.`);
  }
}

/** A checker turns an already JSON-decoded value into T or throws with a message naming `name`. */
export type Checker<T> = (value: unknown, name: string) => T;

export const check = {
  int: ((v, name) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v))
      throw invalidParam(name, `${name} is not an integer`);
    return v;
  }) as Checker<number>,
  string: ((v, name) => {
    if (typeof v !== 'string') throw invalidParam(name, `${name} is not a string`);
    return v;
  }) as Checker<string>,
  bool: ((v, name) => {
    if (typeof v !== 'boolean') throw invalidParam(name, `${name} is not a boolean`);
    return v;
  }) as Checker<boolean>,
  /** An integer that names a row: one beyond the id columns' range names nothing and is refused. */
  id: ((v, name) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v))
      throw invalidParam(name, `${name} is not an integer`);
    if (v > MAX_ID) throw invalidParam(name, `Invalid ${name}`);
    return v;
  }) as Checker<number>,
  list<T>(item: Checker<T>): Checker<T[]> {
    return (v, name) => {
      if (!Array.isArray(v)) throw invalidParam(name, `${name} is not a list`);
      return v.map((x, i) => item(x, `${name}[${i}]`));
    };
  },
  object: ((v, name) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      throw invalidParam(name, `${name} is not a dict`);
    return v as Record<string, unknown>;
  }) as Checker<Record<string, unknown>>,
  any: ((v) => v) as Checker<unknown>,
};

export const p = {
  string: (opts: { maxLength?: number; allowEmpty?: boolean } = {}) =>
    new Param<string>((raw, name) => {
      if (opts.maxLength !== undefined && raw.length > opts.maxLength)
        throw invalidParam(name, `${name} is too long (limit: ${opts.maxLength} characters)`);
      if (opts.allowEmpty === false && raw.trim() === '')
        throw invalidParam(name, `${name} cannot be blank`);
      return raw;
    }),
  int: (opts: { min?: number; max?: number } = {}) =>
    new Param<number>((raw, name) => {
      const n = parseInt(raw, name);
      if (opts.min !== undefined && n < opts.min) throw invalidParam(name, `${name} is too small`);
      if (opts.max !== undefined && n > opts.max) throw invalidParam(name, `${name} is too large`);
      return n;
    }),
  bool: () => new Param<boolean>(parseBool),
  id: () => new Param<number>((raw, name) => check.id(parseInt(raw, name), name)),
  idList: () =>
    new Param<number[]>((raw, name) => check.list(check.id)(parseJson(raw, name), name)),
  oneOf: <const V extends string>(values: readonly V[]) =>
    new Param<V>((raw, name) => {
      if (!(values as readonly string[]).includes(raw)) throw invalidParam(name, `Invalid ${name}`);
      return raw as V;
    }),
  /** A JSON-encoded value, checked with `checker`. */
  json: <T>(checker: Checker<T>) =>
    new Param<T>((raw, name) => checker(parseJson(raw, name), name)),
  intList: () =>
    new Param<number[]>((raw, name) => check.list(check.int)(parseJson(raw, name), name)),
  stringList: () =>
    new Param<string[]>((raw, name) => check.list(check.string)(parseJson(raw, name), name)),
  /** An integer sent either bare or JSON-encoded (both happen in the wild). */
  raw: () => new Param<string>((raw) => raw),
};

export function parseParams<S extends ParamSpec>(
  spec: S,
  raw: Record<string, string>,
  aliases: Record<string, string> = {},
): { params: Parsed<S>; ignored: string[] } {
  const values: Record<string, string> = {};
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const canonical = key in spec ? key : aliases[key];
    if (canonical !== undefined && canonical in spec) {
      // The canonical name wins over a legacy alias sent alongside it.
      if (!(canonical in values) || key === canonical) values[canonical] = value;
    } else {
      ignored.push(key);
    }
  }
  const params: Record<string, unknown> = {};
  for (const [name, param] of Object.entries(spec)) {
    // No text column can hold NUL (PostgreSQL refuses it), and no parameter needs it.
    if (values[name]?.includes('\u0000'))
      throw invalidParam(name, `${name} contains NUL characters`);
    params[name] = param.parse(values[name], name);
  }
  return { params: params as Parsed<S>, ignored };
}
