import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartOptions,
} from 'chart.js';
import { Bar, Line } from 'react-chartjs-2';
import type { ChartCanvasProps } from './chart-types';

// Only what the dashboard draws, so the rest of Chart.js stays out of the bundle.
ChartJS.register(
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  Tooltip,
  Legend,
);

// At least 3:1 against the white background; the second series is also dashed.
const COLORS = ['#2563eb', '#c2410c'];

function options(legend: boolean) {
  const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: reduceMotion ? (false as const) : undefined,
    plugins: {
      legend: {
        display: legend,
        position: 'bottom' as const,
        labels: { color: '#1f2430', boxWidth: 24, boxHeight: 3 },
      },
    },
    scales: {
      x: { grid: { display: false }, ticks: { color: '#374151' } },
      y: { beginAtZero: true, ticks: { precision: 0, color: '#374151' } },
    },
  };
}

/**
 * The Chart.js canvas, loaded lazily. Assistive technology skips it: ChartFigure gives the same
 * figures as text beside it.
 */
export default function ChartCanvas({ kind, labels, series }: ChartCanvasProps) {
  const legend = series.length > 1;
  const color = (index: number) => COLORS[index % COLORS.length] ?? '#2563eb';
  if (kind === 'bar') {
    const barOptions: ChartOptions<'bar'> = options(legend);
    const data = {
      labels,
      datasets: series.map((s, i) => ({
        label: s.label,
        data: s.values,
        backgroundColor: color(i),
      })),
    };
    return <Bar data={data} options={barOptions} aria-hidden="true" />;
  }
  const lineOptions: ChartOptions<'line'> = options(legend);
  const data = {
    labels,
    datasets: series.map((s, i) => ({
      label: s.label,
      data: s.values,
      borderColor: color(i),
      backgroundColor: color(i),
      borderDash: i === 0 ? [] : [6, 4],
      pointRadius: labels.length > 45 ? 0 : 2,
      tension: 0.2,
    })),
  };
  return <Line data={data} options={lineOptions} aria-hidden="true" />;
}
