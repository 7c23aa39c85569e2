import type { ReadModel } from './read-model';

/** Page views ever recorded per website: the sealed days' totals (index) and the hot days'. */
export class TotalsService {
  constructor(private readonly model: ReadModel) {}

  /** Totals for many websites, in the order asked. */
  pageviewsOf(websiteIds: readonly string[]): Promise<number[]> {
    return Promise.all(
      websiteIds.map((website) =>
        this.model.consistent(website, (index, q) => {
          let sealed = 0;
          for (const entry of index.days.values()) sealed += entry.totals[0];
          const hot = [...index.days]
            .filter(([, entry]) => entry.hot)
            .map(([day]) => q.dayRows(day, 'total'));
          return () => hot.reduce((n, read) => n + (read().get('')?.[0] ?? 0), sealed);
        }),
      ),
    );
  }
}
