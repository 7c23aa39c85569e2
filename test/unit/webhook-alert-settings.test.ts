import { buildEvent, type EventType } from '../../common/contracts/platform-events';
import {
  alertAccepts,
  DEFAULT_ALERTS,
  firstAttemptAt,
  settleAlerts,
} from '../../subgraphs/webhooks/src/domain/alert-settings';

const SITE = '65f1c0d2a4b5c6d7e8f90123';
const OTHER = '65f1c0d2a4b5c6d7e8f90124';
const event = (type: EventType, data: Record<string, unknown>) =>
  buildEvent(type, 'user', 'org', { website_id: SITE, ...data });

describe('a webhook’s alert settings (subgraphs/webhooks/src/domain/alert-settings.ts)', () => {
  it('when fields are given, then they replace those of the base and the others stay', () => {
    expect(
      settleAlerts(DEFAULT_ALERTS, { spikeRatio: 3, websiteIds: [SITE.toUpperCase()] }),
    ).toEqual({
      ...DEFAULT_ALERTS,
      spikeRatio: 3,
      websiteIds: [SITE],
    });
    expect(settleAlerts({ ...DEFAULT_ALERTS, websiteIds: [SITE] }, { websiteIds: null })).toEqual(
      DEFAULT_ALERTS,
    );
  });

  it.each([
    [{ spikeRatio: 1.49 }, /spikeRatio/],
    [{ spikeRatio: 101 }, /spikeRatio/],
    [{ dropRatio: 0.68 }, /dropRatio/],
    [{ dropRatio: -0.1 }, /dropRatio/],
    [{ reportHour: 24 }, /reportHour/],
    [{ reportHour: 7.5 }, /reportHour/],
    [{ goalEvery: 0 }, /goalEvery/],
    [{ goalEvery: 2.5 }, /goalEvery/],
    [{ websiteIds: ['nope'] }, /websiteIds/],
    [{ websiteIds: Array.from({ length: 101 }, () => SITE) }, /websiteIds/],
  ])('when given %j, then it is refused naming the field', (input, message) => {
    expect(() => settleAlerts(DEFAULT_ALERTS, input)).toThrow(message);
  });

  it('when a finding is judged, then the thresholds and the websites decide; other events always pass', () => {
    const settings = { ...DEFAULT_ALERTS, spikeRatio: 3, dropRatio: 0.4, websiteIds: [SITE] };
    expect(alertAccepts(settings, event('traffic.spike', { ratio: 3 }))).toBe(true);
    expect(alertAccepts(settings, event('traffic.spike', { ratio: 2.99 }))).toBe(false);
    expect(alertAccepts(settings, event('traffic.drop', { ratio: 0.4 }))).toBe(true);
    expect(alertAccepts(settings, event('traffic.drop', { ratio: 0.41 }))).toBe(false);
    expect(alertAccepts(settings, event('report.daily', {}))).toBe(true);
    expect(alertAccepts(settings, event('report.daily', { website_id: OTHER }))).toBe(false);
    expect(alertAccepts(settings, event('api_key.created', { website_id: OTHER }))).toBe(true);
  });

  it('when a goal is reached, then the day’s first conversion always passes, and a later rise only past a multiple of goal_every', () => {
    const reached = (previous: number, conversions: number) =>
      event('goal.reached', { goal: 'Signup', previous, conversions });
    const firstOnly = DEFAULT_ALERTS;
    const everyThird = { ...DEFAULT_ALERTS, goalEvery: 3 };
    expect(alertAccepts(firstOnly, reached(0, 2))).toBe(true);
    expect(alertAccepts(firstOnly, reached(2, 4))).toBe(false);
    expect(alertAccepts(everyThird, reached(0, 1))).toBe(true);
    expect(alertAccepts(everyThird, reached(1, 2))).toBe(false);
    expect(alertAccepts(everyThird, reached(2, 3))).toBe(true);
    expect(alertAccepts(everyThird, reached(4, 5))).toBe(false);
    expect(alertAccepts(everyThird, reached(5, 9))).toBe(true);
  });

  it('when a daily report is handed over, then its first attempt waits for the report hour of that day, or goes at once once it has come', () => {
    const midnight = Date.parse('2026-11-29T00:00:00Z');
    const report = event('report.daily', {});
    const at = (reportHour: number, now: number) =>
      new Date(firstAttemptAt({ ...DEFAULT_ALERTS, reportHour }, report, now)).toISOString();
    expect(at(8, midnight + 120_000)).toBe('2026-11-29T08:00:00.000Z');
    expect(at(0, midnight + 120_000)).toBe('2026-11-29T00:02:00.000Z');
    expect(at(8, midnight + 9 * 3_600_000)).toBe('2026-11-29T09:00:00.000Z');
    expect(firstAttemptAt(DEFAULT_ALERTS, event('traffic.spike', { ratio: 9 }), midnight)).toBe(
      midnight,
    );
  });
});
