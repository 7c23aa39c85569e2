import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { errorMessage } from '../../api/errors';
import { DataTable, type Column } from '../../components/data-table';
import { EmptyState, LoadingState } from '../../components/data-state';
import { formatNumber } from '../../format/format';
import { graphql } from '../../gql';
import type { WebsiteExploreQuery } from '../../gql/graphql';
import { ExploreForm } from './explore-form';
import {
  describe,
  dimensionLabel,
  dimensionsOf,
  metricLabel,
  metricsOf,
  questionFromParams,
  ROW_LIMIT,
  statsQueryOf,
  withQuestion,
  type Question,
} from './explore-question';

const WebsiteExploreDocument = graphql(`
  query WebsiteExplore($id: ID!, $query: StatsQuery!) {
    website(id: $id) {
      id
      stats(query: $query) {
        totalRows
        results {
          dimensions
          metrics
        }
      }
    }
  }
`);

// The goal dimension's rows are the website's goals: adding or deleting one asks again.
const QUERY_CONTEXT = { additionalTypenames: ['Goal'] };

type Answer = NonNullable<WebsiteExploreQuery['website']>['stats'];
type Row = Answer['results'][number];

/**
 * Explore: the website's visitors and page views by one or two dimensions, filtered by one
 * condition, from the event-level engine. The question asked lives in the URL (`?by=…`), so a
 * reload or a shared link asks it again.
 */
export function WebsiteExplore({ websiteId }: { websiteId: string }) {
  const [params, setParams] = useSearchParams();
  const question = questionFromParams(params);
  // Ranges end with the day of the page's load or of the last Run.
  const [askedAt, setAskedAt] = useState(() => Date.now());
  const [result, reexecute] = useQuery({
    query: WebsiteExploreDocument,
    variables: { id: websiteId, query: question && statsQueryOf(question, askedAt) },
    pause: !question,
    context: QUERY_CONTEXT,
  });

  function run(next: Question) {
    const nextParams = withQuestion(params, next);
    setAskedAt(Date.now());
    // The same question again: the latest events, not the answer already shown.
    if (question && nextParams.toString() === withQuestion(params, question).toString())
      reexecute({ requestPolicy: 'network-only' });
    else setParams(nextParams, { replace: true });
  }

  const answer = result.fetching ? undefined : result.data?.website?.stats;
  return (
    <section aria-labelledby="explore-heading">
      <h2 id="explore-heading">Explore</h2>
      <p>
        Visitors and page views from every event, by one or two dimensions, with a filter. The first{' '}
        {ROW_LIMIT} rows, most visitors first.
      </p>
      <ExploreForm initial={question} onRun={run} />
      {!question ? (
        <EmptyState>
          <p>Choose what to break the traffic down by, and a filter if you like, then Run.</p>
        </EmptyState>
      ) : result.fetching ? (
        <LoadingState />
      ) : result.error ? (
        <div className="state state-error" role="alert">
          <p>{errorMessage(result.error)}</p>
        </div>
      ) : answer ? (
        <AnswerTable question={question} answer={answer} />
      ) : null}
      <p role="status" className="hint">
        {question && answer && rowCount(answer)}
      </p>
    </section>
  );
}

function rowCount(answer: Answer): string {
  const total = answer.totalRows ?? answer.results.length;
  const shown = total > answer.results.length ? `, the first ${answer.results.length} shown` : '';
  return `${formatNumber(total)} ${total === 1 ? 'row' : 'rows'}${shown}`;
}

function AnswerTable({ question, answer }: { question: Question; answer: Answer }) {
  if (answer.results.length === 0)
    return (
      <EmptyState>
        <p>No events match this question in the date range.</p>
      </EmptyState>
    );
  const columns: Column<Row>[] = [
    ...dimensionsOf(question).map((dimension, i) => ({
      header: dimensionLabel(dimension),
      cell: (row: Row) => row.dimensions[i],
    })),
    ...metricsOf(question).map((metric, i) => ({
      header: metricLabel(metric),
      numeric: true,
      cell: (row: Row) => {
        const value = row.metrics[i];
        return value === null || value === undefined ? '—' : formatNumber(value);
      },
    })),
  ];
  return (
    <DataTable
      caption={describe(question)}
      columns={columns}
      rows={answer.results}
      rowKey={(row) => row.dimensions.join('\u0000')}
    />
  );
}
