/**
 * A webhook's analytics alert settings: which websites' findings it takes, from which change on a
 * traffic spike or drop is worth a delivery, and at which UTC hour its daily report goes out.
 */
import type { PlatformEvent } from '../../../../common/contracts/platform-events';
import {
  DROP_CEILING,
  LAST_REPORT_HOUR,
  MAX_ALERT_WEBSITES,
  MAX_GOAL_EVERY,
  MAX_SPIKE_RATIO,
  SPIKE_FLOOR,
} from '../../../../common/contracts/website-events';
import { badInput } from '../../../../common/platform/errors';

export interface AlertSettings {
  /** null: every website the owner may read. */
  websiteIds: string[] | null;
  /** traffic.spike when visitors / baseline ≥ this. */
  spikeRatio: number;
  /** traffic.drop when visitors / baseline ≤ this. */
  dropRatio: number;
  /** report.daily is delivered at this UTC hour (0–23). */
  reportHour: number;
  /** goal.reached for the day's first conversion, and (when set) each time the count passes a multiple of it. */
  goalEvery: number | null;
}

export const DEFAULT_ALERTS: AlertSettings = {
  websiteIds: null,
  spikeRatio: 2,
  dropRatio: 0.5,
  reportHour: 8,
  goalEvery: null,
};

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const OBJECT_ID = /^[0-9a-f]{24}$/i;
const ANALYTICS_TYPES = new Set(['traffic.spike', 'traffic.drop', 'report.daily', 'goal.reached']);

/** Settings as given (each field optional), checked and laid over `base`; a 400 naming the field. */
export function settleAlerts(
  base: AlertSettings,
  input: Partial<AlertSettings> | null | undefined,
): AlertSettings {
  const next = {
    ...base,
    ...Object.fromEntries(Object.entries(input ?? {}).filter(([, v]) => v !== undefined)),
  };
  const { websiteIds, spikeRatio, dropRatio, reportHour, goalEvery } = next;
  if (websiteIds !== null) {
    if (websiteIds.length > MAX_ALERT_WEBSITES || websiteIds.some((id) => !OBJECT_ID.test(id)))
      throw badInput(
        `alerts.websiteIds: at most ${MAX_ALERT_WEBSITES} website ids, or null for all`,
      );
  }
  if (!(spikeRatio >= SPIKE_FLOOR && spikeRatio <= MAX_SPIKE_RATIO))
    throw badInput(`alerts.spikeRatio: a number from ${SPIKE_FLOOR} to ${MAX_SPIKE_RATIO}`);
  if (!(dropRatio >= 0 && dropRatio <= DROP_CEILING))
    throw badInput(`alerts.dropRatio: a number from 0 to ${DROP_CEILING}`);
  if (!Number.isInteger(reportHour) || reportHour < 0 || reportHour > LAST_REPORT_HOUR)
    throw badInput(`alerts.reportHour: an integer from 0 to ${LAST_REPORT_HOUR} (UTC)`);
  if (
    goalEvery !== null &&
    !(Number.isInteger(goalEvery) && goalEvery >= 1 && goalEvery <= MAX_GOAL_EVERY)
  )
    throw badInput(`alerts.goalEvery: an integer from 1 to ${MAX_GOAL_EVERY}, or null`);
  return {
    websiteIds: websiteIds === null ? null : [...new Set(websiteIds.map((id) => id.toLowerCase()))],
    spikeRatio,
    dropRatio,
    reportHour,
    goalEvery,
  };
}

/** Whether a webhook with these settings takes the event (any event that is not an analytics one). */
export function alertAccepts(settings: AlertSettings, event: PlatformEvent): boolean {
  if (!ANALYTICS_TYPES.has(event.type)) return true;
  const website = String(event.data.website_id ?? '').toLowerCase();
  if (settings.websiteIds && !settings.websiteIds.includes(website)) return false;
  const ratio = Number(event.data.ratio);
  if (event.type === 'traffic.spike') return ratio >= settings.spikeRatio;
  if (event.type === 'traffic.drop') return ratio <= settings.dropRatio;
  if (event.type === 'goal.reached') return goalCrossed(settings.goalEvery, event.data);
  return true;
}

/** The day's first conversion, or (with `every`) a count past another multiple of it. */
function goalCrossed(every: number | null, data: Record<string, unknown>): boolean {
  const conversions = Number(data.conversions);
  const previous = Number(data.previous);
  if (previous === 0 && conversions >= 1) return true;
  return every !== null && Math.floor(conversions / every) > Math.floor(previous / every);
}

/**
 * When the first attempt is due: a daily report (made just after midnight UTC) at the webhook's
 * report hour of the day it is handed over, or at once when that hour has come; others at once.
 */
export function firstAttemptAt(settings: AlertSettings, event: PlatformEvent, now: number): number {
  if (event.type !== 'report.daily') return now;
  return Math.max(now, now - (now % DAY_MS) + settings.reportHour * HOUR_MS);
}
