import { formatDate, formatDateTime } from '../format/format';

/** A timestamp in the user's locale; `fallback` (such as "Never") when there is none. */
export function DateTime({
  value,
  fallback = '—',
  dateOnly = false,
}: {
  value: string | null | undefined;
  fallback?: string;
  dateOnly?: boolean;
}) {
  if (!value) return <>{fallback}</>;
  return <time dateTime={value}>{dateOnly ? formatDate(value) : formatDateTime(value)}</time>;
}
