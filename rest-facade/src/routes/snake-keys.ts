/** Field names are few and repeat in every row: each is converted once. */
const snakeNames = new Map<string, string>();
const snake = (key: string) => {
  let name = snakeNames.get(key);
  if (name === undefined) {
    name = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (snakeNames.size < 1_000) snakeNames.set(key, name);
  }
  return name;
};

/** GraphQL's camelCase field names become the REST API's snake_case, at every depth. */
export function snakeKeys(value: readonly unknown[]): unknown[];
export function snakeKeys(value: object): Record<string, unknown>;
export function snakeKeys(value: unknown): unknown;
export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value && typeof value === 'object') {
    const result: Record<string, unknown> = {};
    for (const key in value)
      result[snake(key)] = snakeKeys((value as Record<string, unknown>)[key]);
    return result;
  }
  return value;
}
