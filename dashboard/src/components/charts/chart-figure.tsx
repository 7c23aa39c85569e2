import { lazy, Suspense, useId } from 'react';
import { formatNumber } from '../../format/format';
import type { ChartCanvasProps, ChartSeries } from './chart-types';

const ChartCanvas = lazy(() => import('./chart-canvas'));

/**
 * A titled chart with its text alternative, which only assistive technology sees: a summary
 * (total and busiest day of each series) and the figures as a table.
 */
export function ChartFigure({
  title,
  kind,
  labels,
  series,
  labelHeader = 'Date',
}: ChartCanvasProps & { title: string; labelHeader?: string }) {
  const captionId = useId();
  const summary = series.map((s) => summarize(s, labels)).join(' ');
  return (
    <figure className="chart" aria-labelledby={captionId}>
      <figcaption id={captionId}>{title}</figcaption>
      <div className="chart-area">
        <Suspense fallback={<p className="chart-loading">Loading chart…</p>}>
          <ChartCanvas kind={kind} labels={labels} series={series} />
        </Suspense>
      </div>
      <p className="visually-hidden">{summary}</p>
      <table className="visually-hidden">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{labelHeader}</th>
            {series.map((s) => (
              <th key={s.label} scope="col">
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {labels.map((label, index) => (
            <tr key={index}>
              <th scope="row">{label}</th>
              {series.map((s) => (
                <td key={s.label}>{formatNumber(s.values[index] ?? 0)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

function summarize(series: ChartSeries, labels: string[]): string {
  const total = series.values.reduce((sum, value) => sum + value, 0);
  if (total === 0) return `${series.label}: none.`;
  const peak = series.values.indexOf(Math.max(...series.values));
  return `${series.label}: ${formatNumber(total)} in all, most on ${labels[peak] ?? ''} (${formatNumber(series.values[peak] ?? 0)}).`;
}
