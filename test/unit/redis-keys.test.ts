import { readFileSync } from 'node:fs';
import { callLogStream } from '../../common/contracts/call-log';
import { analyticsEventStream } from '../../common/contracts/collected-event';
import { platformEventStream } from '../../common/contracts/platform-events';
import { readGenerationKey, siteTag } from '../../common/contracts/read-cache';
import { familyWithoutTtl, KEYS_WITHOUT_TTL } from '../../common/contracts/redis-keys';
import { usageKeys } from '../../common/contracts/usage-keys';
import { credentialGenerationKey } from '../../common/platform/credential-cache';
import { fromRoot } from '../../common/platform/paths';
import { deadLetterStream } from '../../common/platform/stream-consumer';
import { liveKey } from '../../rest-facade/src/collect/event-stream';
import { HotKeys } from '../../subgraphs/analytics/src/store/hot-keys';
import {
  bullPrefix,
  DELIVERY_QUEUE_NAME,
} from '../../subgraphs/webhooks/src/delivery/delivery-queue';

/** The rows of the table under docs/scaling.md's "Keys without a time to live", cell by cell. */
function documentedRows(): Array<{ keys: string[]; owner: string; bound: string }> {
  const markdown = readFileSync(fromRoot('docs', 'scaling.md'), 'utf8');
  const section = markdown.split('### Keys without a time to live')[1]?.split('\n### ')[0];
  if (!section) throw new Error('docs/scaling.md has no "Keys without a time to live" section');
  const table = section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2);
  return table.map((line) => {
    const [keys, owner, bound] = line
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim());
    return {
      keys: [...keys!.matchAll(/`<p>([^`]+)`/g)].map((match) => match[1]!),
      owner: owner!,
      bound: bound!,
    };
  });
}

describe('Redis keys without a time to live (common/contracts/redis-keys.ts)', () => {
  it('when docs/scaling.md lists them, then its table is KEYS_WITHOUT_TTL, row for row', () => {
    expect(documentedRows()).toEqual(
      KEYS_WITHOUT_TTL.map(({ keys, owner, bound }) => ({ keys: [...keys], owner, bound })),
    );
  });

  it('when keys are named by the platform’s own key builders, then those kept without a TTL belong to a family and those that expire to none', () => {
    const hot = new HotKeys('');
    const website = '65f0a1b2c3d4e5f6a7b8c9d0';
    const kept = [
      readGenerationKey('', 'accounts'),
      credentialGenerationKey(''),
      usageKeys('').keyTotal('65f0a1b2c3d4e5f6a7b8c9d1'),
      'usage:tokens:last-used',
      callLogStream(''),
      deadLetterStream(analyticsEventStream('')),
      platformEventStream(''),
      hot.applied,
      hot.alive,
      hot.hotDays,
      hot.epoch(website),
      hot.marker(website, '2026-11-28'),
      hot.counters(website, '2026-11-28', 'page'),
      hot.hourCounters(website, '2026-11-28T10', 'total'),
      hot.visitorsByLastPageview(website, '2026-11-28'),
      hot.replays(website, '2026-11-28'),
      `${bullPrefix('')}:${DELIVERY_QUEUE_NAME}:dlv_1-1`,
    ];
    const expiring = [
      readGenerationKey('', siteTag(website)),
      usageKeys('').keyDaily('65f0a1b2c3d4e5f6a7b8c9d1'),
      usageKeys('').monthly(website, new Date()),
      usageKeys('').minuteWindow(website),
      liveKey('', website),
      hot.window(website, 7),
      hot.replayDay(website, 'session-1'),
    ];
    expect(kept.filter((key) => !familyWithoutTtl(key))).toEqual([]);
    expect(expiring.filter((key) => familyWithoutTtl(key))).toEqual([]);
  });
});
