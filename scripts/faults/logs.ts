/**
 * The services' error lines during a scenario, as evidence beside its figures: how many each
 * service logged at level error, and the distinct messages.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { SERVICES, type ServiceName } from '../lib/stack-services';

export type LogMark = ReadonlyMap<ServiceName, number>;

export interface LoggedErrors {
  /** `keys:3,analytics:1`, or empty when none. */
  counts: string;
  /** Distinct messages, `service: msg`. */
  messages: string[];
}

export class ServiceLogs {
  constructor(private readonly dir: string) {}

  private file(name: ServiceName): string {
    return path.join(this.dir, `${name}.log`);
  }

  /** Where each log ends now. */
  mark(): LogMark {
    return new Map(
      SERVICES.map((s) => [
        s.name,
        existsSync(this.file(s.name)) ? statSync(this.file(s.name)).size : 0,
      ]),
    );
  }

  /** Error lines written since `mark`. */
  errorsSince(mark: LogMark): LoggedErrors {
    const counts: string[] = [];
    const messages = new Set<string>();
    for (const { name } of SERVICES) {
      if (!existsSync(this.file(name))) continue;
      const added = readFileSync(this.file(name))
        .subarray(mark.get(name) ?? 0)
        .toString('utf8');
      let count = 0;
      for (const line of added.split('\n')) {
        const entry = parse(line);
        if (!entry || (entry.level !== 'error' && entry.level !== 'fatal')) continue;
        count++;
        messages.add(`${name}: ${entry.msg ?? '(no message)'}`);
      }
      if (count > 0) counts.push(`${name}:${count}`);
    }
    return { counts: counts.join(','), messages: [...messages] };
  }
}

function parse(line: string): { level?: string; msg?: string } | null {
  if (!line.startsWith('{')) return null;
  try {
    return JSON.parse(line) as { level?: string; msg?: string };
  } catch {
    return null;
  }
}
