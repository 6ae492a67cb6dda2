import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { onTestFinished } from 'vitest';
import YAML from 'yaml';

/**
 * Validates API responses and events against the upstream Zulip OpenAPI description
 * (OpenAPI 3.0), which lives outside the repository at ../shared/reference/.
 */

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * The reference folder beside the repository (api-spec.md, the upstream OpenAPI file). CI always
 * has it (.ci/run refuses to run without); PARLEY_REFERENCE_DIR points elsewhere, for instance
 * at an empty folder to see what the suite reports without it.
 */
export const REFERENCE_DIR = path.resolve(
  repoRoot,
  process.env.PARLEY_REFERENCE_DIR ?? '../shared/reference',
);
export const SPEC_FILE = path.join(REFERENCE_DIR, 'zulip-openapi.yaml');

type Json = any;
export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';

const SCHEMA_ID = 'https://parley.invalid/openapi/schemas/';
/** OpenAPI annotations that are not JSON Schema; dropped so they cannot confuse Ajv. */
const DROPPED = new Set([
  'example',
  'examples',
  'discriminator',
  'xml',
  'externalDocs',
  'deprecated',
]);
const addFormats = (addFormatsModule as any).default ?? addFormatsModule;

/**
 * OpenAPI 3.0 schema -> JSON Schema: `nullable` becomes a null type, `$ref` siblings are
 * ignored (as OpenAPI says), references point at the component schemas registered with Ajv.
 * `relax` names fields that are neither required nor constrained (the per-operation allow-list):
 * a plain name anywhere, a dotted one (`groups.streams`) only under that property path, for
 * which the references on the way are inlined (`base`: the names the registered components
 * are relaxed for already).
 */
function convert(node: Json, relax: Set<string>, deref: (n: Json) => Json, base = relax): Json {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return node;
  const dotted = [...relax].filter((r) => r.includes('.'));
  if (typeof node.$ref === 'string') {
    const inline = [...relax].some((r) => !base.has(r));
    return inline ? convert(deref(node), relax, deref, base) : { $ref: refUri(node.$ref) };
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Record<string, Json>)) {
    if (DROPPED.has(key) || key.startsWith('x-') || key === 'nullable') continue;
    if (key === 'properties') {
      out.properties = {};
      const plain = [...relax].filter((r) => !r.includes('.'));
      for (const [name, sub] of Object.entries(value as Record<string, Json>)) {
        const below = dotted
          .filter((r) => r.startsWith(`${name}.`))
          .map((r) => r.slice(name.length + 1));
        out.properties[name] = relax.has(name)
          ? {}
          : convert(sub, new Set([...plain, ...below]), deref, base);
      }
    } else if (key === 'items' || key === 'additionalProperties' || key === 'not') {
      out[key] = convert(value, relax, deref, base);
    } else if (key === 'allOf' || key === 'oneOf' || key === 'anyOf') {
      out[key] = (value as Json[]).map((v) => convert(v, relax, deref, base));
    } else if (key === 'required') {
      const kept = (value as string[]).filter((name) => !relax.has(name));
      if (kept.length) out.required = kept;
    } else {
      out[key] = value;
    }
  }
  if (relax.size > dotted.length && (out.additionalProperties === false || out.type === 'object')) {
    out.properties ??= {};
    for (const name of relax) if (!name.includes('.')) out.properties[name] ??= {};
  }
  if (node.nullable === true) {
    if (typeof out.type === 'string') {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
      return out;
    }
    return { anyOf: [{ type: 'null' }, out] };
  }
  return out;
}

function refUri(ref: string): string {
  const m = /^#\/components\/schemas\/(.+)$/.exec(ref);
  if (!m) throw new Error(`unsupported $ref ${ref}`);
  return SCHEMA_ID + m[1];
}

function formatErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const detail =
      e.keyword === 'additionalProperties'
        ? ` '${(e.params as any).additionalProperty}'`
        : e.keyword === 'required'
          ? ` '${(e.params as any).missingProperty}'`
          : '';
    return `${e.instancePath || '(root)'} ${e.message}${detail}`;
  });
}

export interface EventVariant {
  index: number;
  types: string[];
  ops: string[] | null;
  schema: Json;
}

export class OpenApiSpec {
  private validators = new Map<string, ValidateFunction>();
  private ajvs = new Map<string, Ajv>();
  readonly events: EventVariant[];

  constructor(readonly doc: Json) {
    this.events = this.eventVariants();
  }

  static load(file = SPEC_FILE): OpenApiSpec {
    return new OpenApiSpec(YAML.parse(fs.readFileSync(file, 'utf8'), { maxAliasCount: -1 }));
  }

  /** An Ajv with every component schema registered (compiled lazily, on first reference). */
  private ajv(allow: Set<string>): Ajv {
    const relax = new Set([...allow].filter((name) => !name.includes('.')));
    const key = [...relax].sort().join(',');
    let ajv = this.ajvs.get(key);
    if (!ajv) {
      ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, logger: false });
      addFormats(ajv);
      for (const [name, schema] of Object.entries(
        this.doc.components.schemas as Record<string, Json>,
      ))
        ajv.addSchema(convert(schema, relax, this.deref), SCHEMA_ID + name);
      this.ajvs.set(key, ajv);
    }
    return ajv;
  }

  readonly deref = (node: Json): Json => {
    let n = node;
    for (let i = 0; n && typeof n.$ref === 'string' && i < 20; i++) {
      const parts = (n.$ref as string).replace(/^#\//, '').split('/');
      n = parts.reduce((o: Json, p) => o?.[p.replace(/~1/g, '/').replace(/~0/g, '~')], this.doc);
    }
    return n;
  };

  operation(method: Method, specPath: string): Json | undefined {
    return this.doc.paths[specPath]?.[method.toLowerCase()];
  }

  /** The JSON schema the spec gives for one response status of an operation, if any. */
  responseSchema(method: Method, specPath: string, status: number): Json | undefined {
    const responses = this.operation(method, specPath)?.responses ?? {};
    const response = this.deref(responses[String(status)] ?? responses[`${String(status)[0]}XX`]);
    return response?.content?.['application/json']?.schema;
  }

  private compile(cacheKey: string, schema: Json, relax: Set<string>): ValidateFunction {
    const key = `${cacheKey}|${[...relax].sort().join(',')}`;
    let v = this.validators.get(key);
    if (!v) {
      const base = new Set([...relax].filter((name) => !name.includes('.')));
      v = this.ajv(relax).compile(convert(schema, relax, this.deref, base));
      this.validators.set(key, v);
    }
    return v;
  }

  /** Errors of `body` against the schema of that status (`null` when the spec gives none). */
  validateResponse(
    method: Method,
    specPath: string,
    status: number,
    body: unknown,
    allow: string[] = [],
  ): string[] | null {
    const schema = this.responseSchema(method, specPath, status);
    if (!schema) return null;
    const v = this.compile(`${method} ${specPath} ${status}`, schema, new Set(allow));
    return v(body) ? [] : formatErrors(v.errors);
  }

  /** Errors of `body` against one named component schema, e.g. `InvalidApiKeyError`. */
  validateComponent(name: string, body: unknown, allow: string[] = []): string[] {
    if (!this.doc.components.schemas[name]) throw new Error(`no component schema ${name}`);
    const v = this.compile(
      `component ${name}`,
      { $ref: `#/components/schemas/${name}` },
      new Set(allow),
    );
    return v(body) ? [] : formatErrors(v.errors);
  }

  /** The `oneOf` variants of the events that GET /events returns, keyed by type and op. */
  private eventVariants(): EventVariant[] {
    const response = this.deref(this.responseSchema('GET', '/events', 200));
    const branches: Json[] = response.allOf ?? [response];
    const events = branches.map((b) => this.deref(b).properties?.events).find(Boolean);
    const inner = this.deref(events.items);
    return (inner.oneOf as Json[]).map((schema, index) => {
      const props = this.mergedProperties(schema);
      return { index, types: this.enumOf(props.type) ?? [], ops: this.enumOf(props.op), schema };
    });
  }

  private mergedProperties(schema: Json): Record<string, Json> {
    const s = this.deref(schema);
    const own = { ...(s.properties ?? {}) };
    for (const branch of s.allOf ?? []) Object.assign(own, this.mergedProperties(branch));
    return own;
  }

  private enumOf(schema: Json): string[] | null {
    const s = this.deref(schema);
    if (!s) return null;
    if (Array.isArray(s.enum)) return s.enum;
    for (const branch of s.allOf ?? []) {
      const e = this.enumOf(branch);
      if (e) return e;
    }
    return null;
  }

  /** Errors of one event against the variants for its type (and op); `allow` as above. */
  validateEvent(event: Json, allow: string[] = []): string[] {
    const candidates = this.events.filter(
      (v) => v.types.includes(event.type) && (v.ops === null || v.ops.includes(event.op)),
    );
    if (!candidates.length) return [`no event variant for type '${event.type}' op '${event.op}'`];
    let best: string[] | null = null;
    for (const c of candidates) {
      const v = this.compile(`event ${c.index}`, c.schema, new Set(allow));
      if (v(event)) return [];
      const errors = formatErrors(v.errors);
      if (!best || errors.length < best.length) best = errors;
    }
    return best!;
  }
}

export const specAvailable = fs.existsSync(SPEC_FILE);

/**
 * For a check inside a test that needs the upstream description where it is absent. The test's
 * other checks still run and can fail it; if they pass, it is reported skipped rather than
 * passed, since part of what it claims went unchecked.
 */
export function skipTestWithoutSpec(what: string) {
  onTestFinished(({ task, skip }) => {
    if (task.result?.state === 'pass') skip(`${SPEC_FILE} is absent: ${what} not checked`);
  });
}

/** Turns a spec path template and values into a concrete path: /messages/{message_id} -> /messages/5 */
export function fillPath(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`no value for {${name}} in ${template}`);
    return encodeURIComponent(String(values[name]));
  });
}
