import {
  MAX_GOAL_EVENT_NAME_LENGTH,
  MAX_GOAL_NAME_LENGTH,
  MAX_GOAL_PAGE_PATH_LENGTH,
  type GoalDefinition,
  type GoalKind,
} from '../../../../common/contracts/goals';
import { badInput } from '../../../../common/platform/errors';

export interface GoalInput {
  kind: GoalKind;
  name?: string | null;
  pagePath?: string | null;
  eventName?: string | null;
  currency?: string | null;
}

export interface ValidGoal extends GoalDefinition {
  name: string;
}

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** Blank counts as left out: forms send empty fields. */
const given = (value: string | null | undefined) => value?.trim() || null;

/**
 * The goal to store, or `invalid_parameters` naming the field. Each kind takes its own fields
 * only; revenue comes with named events, so a currency goes with event goals alone.
 */
export function validGoal(input: GoalInput): ValidGoal {
  const pagePath = given(input.pagePath);
  const eventName = given(input.eventName);
  const currency = given(input.currency);
  const name = given(input.name);
  if (name && name.length > MAX_GOAL_NAME_LENGTH)
    throw badInput(`name must be at most ${MAX_GOAL_NAME_LENGTH} characters`);
  if (input.kind === 'page') {
    if (eventName) throw badInput('eventName goes with EVENT goals only');
    if (currency)
      throw badInput('currency goes with EVENT goals only: revenue comes with named events');
    if (!pagePath) throw badInput('A PAGE goal needs pagePath');
    const pattern = recordedPath(pagePath);
    return {
      kind: 'page',
      name: name ?? shortened(`Visit ${pattern}`),
      pagePath: pattern,
      eventName: null,
      currency: null,
    };
  }
  if (pagePath) throw badInput('pagePath goes with PAGE goals only');
  if (!eventName) throw badInput('An EVENT goal needs eventName');
  if (eventName.length > MAX_GOAL_EVENT_NAME_LENGTH)
    throw badInput(
      `eventName must be at most ${MAX_GOAL_EVENT_NAME_LENGTH} characters, as custom event names are`,
    );
  return {
    kind: 'event',
    name: name ?? eventName,
    pagePath: null,
    eventName,
    currency: currency && currencyCode(currency),
  };
}

/**
 * The pattern as the collector records page paths (WHATWG URL parsing: non-ASCII and spaces
 * percent-encoded, dot segments resolved), so that what is stored can match what is recorded.
 * `*` passes through unchanged.
 */
function recordedPath(pattern: string): string {
  if (!pattern.startsWith('/')) throw badInput('pagePath must start with /');
  if (/[?#]/.test(pattern))
    throw badInput(
      'pagePath is a path only: page paths are recorded without query string or fragment',
    );
  // The host keeps a pattern starting with // a path rather than an address of another host.
  const path = new URL(`http://goal.invalid${pattern}`).pathname;
  if (path.length > MAX_GOAL_PAGE_PATH_LENGTH)
    throw badInput(
      `pagePath must be at most ${MAX_GOAL_PAGE_PATH_LENGTH} characters once percent-encoded, as recorded page paths are`,
    );
  return path;
}

const shortened = (text: string) =>
  text.length > MAX_GOAL_NAME_LENGTH ? `${text.slice(0, MAX_GOAL_NAME_LENGTH - 1)}…` : text;

function currencyCode(value: string): string {
  const code = value.toUpperCase();
  if (!CURRENCIES.has(code))
    throw badInput(`currency must be an ISO 4217 code such as EUR or USD; ${value} is not one`);
  return code;
}
