import type { Dispatcher } from 'undici';
import { monthOf } from '../../../common/contracts/usage-keys';
import { postAsService } from '../../../common/platform/graphql-post';
import type { LimitSubject } from './usage-limiter';

const RESTORE = `mutation RestoreUsage($organizationId: ID!, $keyId: ID!, $at: String!) {
  restoreUsage(organizationId: $organizationId, keyId: $keyId, at: $at)
}`;

export interface UsageRestorerOptions {
  keysUrl: string;
  internalSecret: string;
  dispatcher: Dispatcher;
  /**
   * Appends the calls this instance has counted and not yet logged: the call log's buffer, after
   * the calls still being answered are (briefly) waited for.
   */
  flushCallLog(): Promise<void>;
}

/** The counters of an organization's month or of a key could not be restored now. */
export class UsageRestoreError extends Error {
  override readonly name = 'UsageRestoreError';
}

/**
 * Asks the keys subgraph to set the usage counters Redis does not have (lost with its data, or
 * never made: a new month, a new key) from the usage ledger, before a call is counted in them
 * (docs/api.md, "Counts that survive a Redis loss"). This instance's own calls not yet logged go
 * to the call log first, so the ledger the keys subgraph reads holds them. Requests for the same
 * counters share one restore.
 */
export class UsageRestorer {
  private readonly running = new Map<string, Promise<void>>();

  constructor(private readonly options: UsageRestorerOptions) {}

  restore(subject: LimitSubject, at: Date): Promise<void> {
    const id = `${subject.billingOrganizationId}|${monthOf(at)}|${subject.keyId}`;
    let restoring = this.running.get(id);
    if (!restoring) {
      restoring = this.ask(subject, at).finally(() => this.running.delete(id));
      this.running.set(id, restoring);
    }
    return restoring;
  }

  private async ask(subject: LimitSubject, at: Date): Promise<void> {
    const { keysUrl, internalSecret, dispatcher } = this.options;
    await this.options.flushCallLog();
    const body = {
      query: RESTORE,
      variables: {
        organizationId: subject.billingOrganizationId,
        keyId: subject.keyId,
        at: at.toISOString(),
      },
    };
    let answer;
    try {
      answer = await postAsService(keysUrl, dispatcher, body, {
        secret: internalSecret,
        service: 'rest-facade',
        audience: 'keys',
      });
    } catch (error) {
      throw new UsageRestoreError(`the keys subgraph did not answer: ${(error as Error).message}`);
    }
    let parsed: { data?: { restoreUsage?: boolean } | null; errors?: Array<{ message: string }> };
    try {
      parsed = JSON.parse(answer.text) as typeof parsed;
    } catch {
      throw new UsageRestoreError(`the keys subgraph answered ${answer.status} without JSON`);
    }
    if (parsed.data?.restoreUsage !== true)
      throw new UsageRestoreError(
        `the keys subgraph could not restore usage: ${parsed.errors?.[0]?.message ?? answer.status}`,
      );
  }
}
