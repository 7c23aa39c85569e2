import { z } from 'zod';

type Schema = Record<string, unknown>;

/**
 * A zod tuple becomes `prefixItems` with `items: false`, which code generators and linters
 * (Spectral's array-items) do not take. It is published as a fixed-length array whose items are
 * any of the tuple's members; the order is for the property's description to say.
 */
function withoutTuples(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutTuples);
  if (!node || typeof node !== 'object') return node;
  const { prefixItems, items, ...rest } = node as Schema;
  const schema = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, withoutTuples(value)]),
  );
  if (!Array.isArray(prefixItems))
    return items === undefined ? schema : { ...schema, items: withoutTuples(items) };
  const members = [
    ...new Map(prefixItems.map((m) => [JSON.stringify(m), withoutTuples(m)])).values(),
  ];
  return { ...schema, items: members.length === 1 ? members[0] : { anyOf: members } };
}

/**
 * The JSON Schema of what `schema` accepts (its input), minus `$schema` (the document's dialect
 * already is 2020-12), with tuples as fixed-length arrays.
 */
export function jsonSchemaOf(schema: z.ZodType): Schema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as Schema;
  return withoutTuples(rest) as Schema;
}
