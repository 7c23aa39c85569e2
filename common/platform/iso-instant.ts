const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/**
 * An ISO 8601 date (`2027-03-01`, midnight UTC) or date-time with its offset
 * (`2027-03-01T12:00:00Z`, `…+02:00`), or null. Stricter than `new Date()`, which rolls
 * `2099-02-31` over into March, reads years past 9999 and takes a time without offset as local.
 */
export function parseIsoInstant(value: string): Date | null {
  const match = ISO_INSTANT.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match
    .slice(1, 7)
    .map((part) => Number(part ?? 0));
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysInMonth) return null;
  if (hour! > 23 || minute! > 59 || second! > 59) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** An ISO 8601 date-time with its offset (`2027-03-01T12:00:00Z`), or null: a bare date is not one. */
export function parseIsoDateTime(value: string): Date | null {
  return value.includes('T') ? parseIsoInstant(value) : null;
}
