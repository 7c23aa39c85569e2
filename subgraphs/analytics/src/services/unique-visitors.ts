import type { AnalyticsModels } from '../models';

/**
 * Distinct visitors with a page view since `from`, exact, from the visitor records: what the 24h
 * range reports, where hourly counters summed would count a visitor once per hour.
 */
export function uniqueVisitorsSince(
  models: AnalyticsModels,
  websiteId: string,
  from: number,
): Promise<number> {
  const since = new Date(from);
  return models.Visitor.countDocuments({
    websiteId,
    // Narrows through the {websiteId, lastSeen} index: a page view is an event.
    lastSeen: { $gte: since },
    $or: [
      { lastPageviewAt: { $gte: since } },
      // Stored before lastPageviewAt existed: lastSeen moved only on page views then.
      { lastPageviewAt: null, pageviews: { $gt: 0 } },
    ],
  });
}
