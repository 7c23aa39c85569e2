import { readFileSync } from 'node:fs';
import { buildSchema, GraphQLEnumType } from 'graphql';
import {
  QUERY_DIMENSIONS,
  QUERY_METRICS,
  queryDimension,
  restDimension,
  TIME_DIMENSIONS,
  toQueryInput,
  toRestQueryResult,
  type RestQueryNames,
} from '../../common/contracts/analytics-query';
import { fromRoot } from '../../common/platform/paths';

/** The values of an enum of the composed API schema, in the schema's order. */
function enumValues(name: string): string[] {
  const schema = buildSchema(readFileSync(fromRoot('gateway', 'api-schema.graphql'), 'utf8'));
  const type = schema.getType(name);
  if (!(type instanceof GraphQLEnumType)) throw new Error(`${name} is no enum`);
  return type.getValues().map((value) => value.name);
}

const buildBody = (overrides: Partial<RestQueryNames> = {}): RestQueryNames => ({
  metrics: ['visitors'],
  dimensions: [],
  filters: [],
  order_by: [],
  ...overrides,
});

const refuse = (message: string) => new Error(message);

describe('POST /query vocabulary as GraphQL enums', () => {
  it('when the schema is read, then its enums hold the contract vocabulary, time dimensions renamed', () => {
    const dimensions = [...QUERY_DIMENSIONS, ...TIME_DIMENSIONS].map(queryDimension);

    expect(enumValues('QueryMetric')).toEqual([...QUERY_METRICS]);
    expect(enumValues('QueryDimension')).toEqual(dimensions);
    expect(enumValues('QueryOrderField')).toEqual([...QUERY_METRICS, ...dimensions]);
  });

  it('when a REST dimension is mapped to its enum value and back, then it is unchanged', () => {
    for (const name of [...QUERY_DIMENSIONS, ...TIME_DIMENSIONS])
      expect(restDimension(queryDimension(name))).toBe(name);
    expect(queryDimension('time:day')).toBe('time_day');
    expect(queryDimension('country')).toBe('country');
  });

  it('when a body is mapped, then names become enum values and operators and directions upper case', () => {
    const input = toQueryInput(
      buildBody({
        metrics: ['pageviews', 'bounce_rate'],
        dimensions: ['time:hour'],
        filters: [
          ['is_not', 'page', ['/a']],
          ['contains', 'page', ['b']],
        ],
        order_by: [
          ['time:hour', 'desc'],
          ['bounce_rate', 'asc'],
        ],
      }),
      refuse,
    );

    expect(input).toEqual({
      metrics: ['pageviews', 'bounce_rate'],
      dimensions: ['time_hour'],
      filters: [
        { operator: 'IS_NOT', dimension: 'page', values: ['/a'] },
        { operator: 'CONTAINS', dimension: 'page', values: ['b'] },
      ],
      orderBy: [
        { field: 'time_hour', direction: 'DESC' },
        { field: 'bounce_rate', direction: 'ASC' },
      ],
    });
  });

  it('when an order_by field names no metric or dimension, then it is refused in the subgraph’s words', () => {
    const map = () => toQueryInput(buildBody({ order_by: [['revenue', 'asc']] }), refuse);

    expect(map).toThrow(
      'order_by: revenue is neither a requested metric nor the requested dimension',
    );
  });

  it('when a result is mapped back, then only its query names change, every key in its place', () => {
    const result = {
      metrics: ['visitors' as const],
      dimensions: ['time_day' as const],
      from: 'f',
      to: 't',
      results: [{ dimensions: ['2026-11-24T00:00:00.000Z'], metrics: [3] }],
    };

    const rest = toRestQueryResult(result);

    expect(JSON.stringify(rest)).toBe(
      JSON.stringify({ ...result, metrics: ['visitors'], dimensions: ['time:day'] }),
    );
  });
});
