import fc from 'fast-check';
import type { JsonSchema } from './openApiDocument';

/**
 * fast-check arbitraries derived from the JSON schemas of the OpenAPI document: values that
 * satisfy a schema, values that miss it in one place (near-valid: a boundary, a wrong type, a
 * dropped or an extra key), and hostile values that ignore it. A new route is fuzzed from its
 * schemas without new test code.
 */

/** Keys that reach an object's prototype chain when code copies a parsed body carelessly. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** Strings that have broken parsers, databases or displays somewhere. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  '\uDBFF\uDBFF',
  '\u200B',
  '\u2060',
  '\u061C',
  '\u180E',
  '\uFEFF',
  '\u202E\u0644abc',
  '\uDB40\uDC41',
  '\uFFF9',
  '\uFFFF',
  '\uFFFD',
  '\u0301',
  'e\u0301\u0301\u0301',
  '\uD83D\uDC69\u200D\uD83D\uDC69\u200D\uD83D\uDC67',
  '\r\n',
  '\t\v\f',
  '../../etc/passwd',
  '%2e%2e%2f',
  "'; drop table club; --",
  '" or 1=1 --',
  '\\',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e309',
  '9007199254740993',
  '0x10',
  ' 1',
  '1 ',
  '１２',
  '٣',
  'true',
  '2026-02-30T25:61:00Z',
  '0000-00-00',
  '+275760-09-13T00:00:00.001Z',
  'Europe/../../etc',
];

/** A huge string: longer than any field allows, short enough to stay under the body limits. */
const hugeString = fc
  .constantFrom(2_000, 70_000)
  .chain((length) => fc.constantFrom('a'.repeat(length), '\u00e9'.repeat(length), '\uD800'.repeat(length)));

/** Any string, with the hostile ones and unicode edge cases over-represented. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 10 }), fc.constantFrom(...HOSTILE_STRINGS), fc.string({ maxLength: 10 }))
      .map((parts) => parts.join('')),
  },
  { weight: 1, arbitrary: hugeString },
);

const hostileNumber = fc.constantFrom(0, -0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 63), 1e-320);

/** An object nested `depth` deep, built without recursion in the arbitrary. */
function nested(depth: number, asArray: boolean): unknown {
  let value: unknown = 0;
  for (let i = 0; i < depth; i += 1) value = asArray ? [value] : { a: value };
  return value;
}

/** An own, enumerable key that JSON.stringify writes as it is (an object literal's `__proto__` sets the prototype instead). */
export function withKey(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [name, existing] of Object.entries(target))
    Object.defineProperty(copy, name, { value: existing, enumerable: true, writable: true, configurable: true });
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** A JSON value that ignores any schema: wrong types, nulls, deep nesting, prototype keys. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}) },
  { weight: 1, arbitrary: fc.constantFrom(8, 64, 1_000).chain((depth) => fc.boolean().map((asArray) => nested(depth, asArray))) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...PROTOTYPE_KEYS), fc.constantFrom<unknown>({ polluted: true }, null, 'x', { isAdmin: true }))
      .map(([key, value]) => withKey({}, key, value)),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

const types = (schema: JsonSchema): string[] => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);
const variants = (schema: JsonSchema): JsonSchema[] | undefined =>
  (schema['anyOf'] as JsonSchema[] | undefined) ?? (schema['oneOf'] as JsonSchema[] | undefined);
const num = (schema: JsonSchema, keyword: string): number | undefined =>
  typeof schema[keyword] === 'number' ? schema[keyword] : undefined;

const MAX_GENERATED_ITEMS = 4;

/** A value satisfying the schema, as far as JSON Schema says (valibot checks beyond it may still refuse it). */
export function validValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema['const']);
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
  const options = variants(schema);
  if (options) return fc.oneof(...options.map(validValue));
  const [type] = types(schema);
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = num(schema, 'minimum') ?? -1_000;
      return fc.integer({ min, max: num(schema, 'maximum') ?? min + 10_000 });
    }
    case 'number': {
      const min = num(schema, 'minimum') ?? -1_000;
      return fc.double({ min, max: num(schema, 'maximum') ?? min + 10_000, noNaN: true, noDefaultInfinity: true });
    }
    case 'string':
      return validString(schema);
    case 'array': {
      const minLength = num(schema, 'minItems') ?? 0;
      const maxLength = Math.min(num(schema, 'maxItems') ?? MAX_GENERATED_ITEMS, Math.max(minLength, MAX_GENERATED_ITEMS));
      return fc.array(schema.items ? validValue(schema.items) : fc.jsonValue({ maxDepth: 1 }), { minLength, maxLength });
    }
    case 'object':
    default: {
      if (!schema.properties) return type === 'object' ? fc.constant({}) : fc.jsonValue({ maxDepth: 2 });
      const required = new Set(schema.required ?? []);
      const properties = Object.fromEntries(Object.entries(schema.properties).map(([key, value]) => [key, validValue(value)]));
      return fc.record(properties, { requiredKeys: [...required].filter((key) => key in properties) });
    }
  }
}

function validString(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = num(schema, 'minLength') ?? 0;
  const maxLength = Math.min(num(schema, 'maxLength') ?? 40, Math.max(minLength, 40));
  if (schema['format'] === 'date-time')
    return fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString());
  if (schema['format'] === 'date')
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  if (typeof schema['pattern'] === 'string') {
    return fc
      .stringMatching(new RegExp(schema['pattern']))
      .filter((text) => text.length >= minLength && text.length <= (num(schema, 'maxLength') ?? Infinity));
  }
  return fc.string({ unit: 'grapheme-ascii', minLength, maxLength });
}

/** A value just outside what the schema allows: at a bound, off by one, the wrong type. */
function boundaryValues(schema: JsonSchema): unknown[] {
  const [type] = types(schema);
  const values: unknown[] = [null];
  if (type === 'string') {
    const min = num(schema, 'minLength');
    const max = num(schema, 'maxLength');
    if (min !== undefined && min > 0) values.push('x'.repeat(min - 1));
    if (max !== undefined) values.push('x'.repeat(max + 1), '\u{1F600}'.repeat(max), 'e\u0301'.repeat(max));
    values.push(0, 1, [], {}, true);
  } else if (type === 'integer' || type === 'number') {
    const min = num(schema, 'minimum');
    const max = num(schema, 'maximum');
    if (min !== undefined) values.push(min - 1, min - 0.5);
    if (max !== undefined) values.push(max + 1, max + 0.5);
    values.push('1', 1.5, 1e308, -0, true, []);
  } else if (type === 'boolean') {
    values.push('true', 0, 1, 'false', []);
  } else if (type === 'array') {
    const max = num(schema, 'maxItems');
    if (max !== undefined && max <= 100) values.push(Array.from({ length: max + 1 }, () => 'x'));
    values.push({}, 'x', { length: 1, 0: 'x' });
  } else {
    values.push([], 'x', 1);
  }
  if (Array.isArray(schema['enum']))
    values.push(...(schema['enum'] as unknown[]).map((value) => (typeof value === 'string' ? value.toUpperCase() + ' ' : value)));
  return values;
}

/** Characters that are not text, or that display as nothing: each one alone makes a string suspect. */
export const UNICODE_EDGES: readonly string[] = [
  '\uD800',
  '\uDC00',
  '\u0000',
  '\u0007',
  '\u200B',
  '\u2060',
  '\u202E',
  '\uFEFF',
  '\uDB40\uDC41',
  '\u0301',
  '\u2028',
];

/** A string of the right type and length with one edge character put in somewhere. */
function stringWithEdge(schema: JsonSchema): fc.Arbitrary<string> {
  return fc
    .tuple(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 20 }), fc.constantFrom(...UNICODE_EDGES), fc.nat())
    .map(([text, edge, at]) => {
      const position = at % (text.length + 1);
      const max = num(schema, 'maxLength') ?? Infinity;
      return (text.slice(0, position) + edge + text.slice(position)).slice(0, Math.max(edge.length, max));
    });
}

/** Near-valid: a valid value with exactly one thing wrong, somewhere inside. */
export function nearValidValue(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const [type] = types(schema);
  const leaf = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...boundaryValues(schema)) },
    { weight: 2, arbitrary: hostileValue },
    ...(type === 'string' ? [{ weight: 3, arbitrary: stringWithEdge(schema) }] : []),
  );
  if (depth > 6) return leaf;
  const options = variants(schema);
  if (options) return fc.oneof(leaf, ...options.map((option) => nearValidValue(option, depth + 1)));
  if (type === 'array' && schema.items) {
    const items = schema.items;
    return fc.oneof(
      leaf,
      fc.tuple(validValue(schema), nearValidValue(items, depth + 1), fc.nat()).map(([array, wrong, at]) => {
        const copy = [...(array as unknown[])];
        copy.splice(copy.length ? at % (copy.length + 1) : 0, copy.length ? 1 : 0, wrong);
        return copy;
      }),
    );
  }
  if (schema.properties) {
    const keys = Object.keys(schema.properties);
    const properties = schema.properties;
    const required = schema.required ?? [];
    const base = validValue(schema).map((value) =>
      value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {},
    );
    const mutations: fc.Arbitrary<unknown>[] = [
      leaf,
      // One property wrong.
      fc
        .constantFrom(...keys)
        .chain((key) => fc.tuple(base, fc.constant(key), nearValidValue(properties[key] ?? {}, depth + 1)))
        .map(([value, key, wrong]) => withKey(value, key, wrong)),
      // An unknown key, a prototype key among them.
      fc
        .tuple(base, fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 12 })), hostileValue)
        .map(([value, key, extra]) => withKey(value, key, extra)),
    ];
    // A required property missing.
    if (required.length) {
      mutations.push(
        fc.tuple(base, fc.constantFrom(...required)).map(([value, key]) => {
          const copy = { ...value };
          delete copy[key];
          return copy;
        }),
      );
    }
    return fc.oneof(...mutations);
  }
  return leaf;
}

/** What a fuzzed request body is built from: mostly near-valid, some valid, some hostile. */
export function bodyValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 2, arbitrary: validValue(schema) },
    { weight: 5, arbitrary: nearValidValue(schema) },
    { weight: 2, arbitrary: hostileValue },
  );
}
