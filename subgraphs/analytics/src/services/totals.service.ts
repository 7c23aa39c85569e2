import type { AnalyticsModels } from '../models';

export class TotalsService {
  constructor(private readonly models: AnalyticsModels) {}

  async recordPageviews(websiteId: string, count: number): Promise<void> {
    await this.models.WebsiteTotals.updateOne(
      { websiteId },
      { $inc: { pageviews: count } },
      { upsert: true },
    );
  }

  /** Totals for many websites in one query, in the order asked. */
  async pageviewsOf(websiteIds: readonly string[]): Promise<number[]> {
    const docs = await this.models.WebsiteTotals.find({ websiteId: { $in: websiteIds } }).lean();
    const byId = new Map(docs.map((d) => [d.websiteId, d.pageviews]));
    return websiteIds.map((id) => byId.get(id) ?? 0);
  }
}
