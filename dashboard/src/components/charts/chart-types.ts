export interface ChartSeries {
  label: string;
  values: number[];
}

export interface ChartCanvasProps {
  kind: 'bar' | 'line';
  labels: string[];
  series: ChartSeries[];
}
