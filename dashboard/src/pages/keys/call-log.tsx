import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { DataTable, type Column } from '../../components/data-table';
import { EmptyState, QueryState } from '../../components/data-state';
import { DateTime } from '../../components/date-time';
import { formatMs, startOfLocalDay } from '../../format/format';
import { graphql } from '../../gql';
import type { KeyCallsQuery } from '../../gql/graphql';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { CallLogFilters, type CallFilters } from './call-log-filters';

const KeyCallsDocument = graphql(`
  query KeyCalls(
    $id: ID!
    $from: String
    $to: String
    $endpoint: String
    $first: Int!
    $after: String
  ) {
    apiKey(id: $id) {
      id
      calls(from: $from, to: $to, endpoint: $endpoint, first: $first, after: $after) {
        nodes {
          id
          at
          method
          endpoint
          path
          status
          ip
          durationMs
          requestId
        }
        hasNextPage
        endCursor
      }
    }
  }
`);

const PAGE_SIZE = 50;

type Call = NonNullable<KeyCallsQuery['apiKey']>['calls']['nodes'][number];

const COLUMNS: Column<Call>[] = [
  { header: 'Time', cell: (call) => <DateTime value={call.at} /> },
  { header: 'Method', cell: (call) => call.method },
  {
    header: 'Endpoint',
    cell: (call) => (
      <>
        <code>{call.endpoint}</code>
        {call.path !== call.endpoint && <span className="secondary">{call.path}</span>}
      </>
    ),
  },
  {
    header: 'Status',
    numeric: true,
    cell: (call) => (
      <span className={call.status >= 400 ? 'status status-bad' : undefined}>{call.status}</span>
    ),
  },
  { header: 'Duration', numeric: true, cell: (call) => formatMs(call.durationMs) },
  { header: 'IP', cell: (call) => call.ip },
  { header: 'Request ID', cell: (call) => (call.requestId ? <code>{call.requestId}</code> : '—') },
];

/**
 * The key's calls, newest first, filtered by the URL's `from`, `to` and `endpoint` (`?from=…`), so
 * a reload or a shared link keeps the filters.
 */
export function CallLog({ keyId }: { keyId: string }) {
  const [params, setParams] = useSearchParams();
  const filters: CallFilters = {
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    endpoint: params.get('endpoint') ?? '',
  };
  // Typing an endpoint queries once the typing pauses, not on every key.
  const endpoint = useDebouncedValue(filters.endpoint, 300);
  const applied = { ...filters, endpoint };

  function change(next: CallFilters) {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(next)) if (value) query.set(name, value);
    setParams(query, { replace: true });
  }

  return (
    <section aria-labelledby="call-log-heading">
      <h2 id="call-log-heading">Call log</h2>
      <CallLogFilters initial={filters} onChange={change} />
      {/* New filters start again from the first page. */}
      <CallPages key={JSON.stringify(applied)} keyId={keyId} filters={applied} />
    </section>
  );
}

function CallPages({ keyId, filters }: { keyId: string; filters: CallFilters }) {
  // Cursors of the pages seen so far: "Previous page" goes back one.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const after = cursors[cursors.length - 1] ?? null;
  const [result, reexecute] = useQuery({
    query: KeyCallsDocument,
    variables: {
      id: keyId,
      from: startOfLocalDay(filters.from),
      // `to` is exclusive on the server: the day after the last day asked for.
      to: startOfLocalDay(filters.to, 1),
      endpoint: filters.endpoint || null,
      first: PAGE_SIZE,
      after,
    },
    requestPolicy: 'cache-and-network',
  });
  const filtered = Boolean(filters.from || filters.to || filters.endpoint);

  return (
    <QueryState result={result} what="the call log" reexecute={reexecute}>
      {(data) => {
        const page = data.apiKey?.calls;
        if (!page) return null;
        const endCursor = page.endCursor;
        return (
          <>
            {page.nodes.length === 0 ? (
              <EmptyState>
                <p>{filtered ? 'No calls match these filters.' : 'No calls recorded yet.'}</p>
              </EmptyState>
            ) : (
              <DataTable
                caption={`Calls, page ${cursors.length}`}
                captionHidden
                columns={COLUMNS}
                rows={page.nodes}
                rowKey={(call) => call.id}
              />
            )}
            <nav className="pager" aria-label="Call log pages">
              <button
                type="button"
                className="button"
                disabled={cursors.length === 1}
                onClick={() => setCursors(cursors.slice(0, -1))}
              >
                Previous page
              </button>
              <span>Page {cursors.length}</span>
              <button
                type="button"
                className="button"
                disabled={!page.hasNextPage || !endCursor}
                onClick={() => endCursor && setCursors([...cursors, endCursor])}
              >
                Next page
              </button>
            </nav>
          </>
        );
      }}
    </QueryState>
  );
}
