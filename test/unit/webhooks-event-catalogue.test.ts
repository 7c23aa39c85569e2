import { readFileSync } from 'node:fs';
import { EVENT_CATALOGUE } from '../../common/contracts/event-catalogue';
import { EVENT_TYPES } from '../../common/contracts/platform-events';
import { fromRoot } from '../../common/platform/paths';

/** docs/webhooks.md's catalogue: each heading's event types and the JSON Schema under it. */
function publishedSchemas(): Map<string, unknown> {
  const markdown = readFileSync(fromRoot('docs', 'webhooks.md'), 'utf8');
  const catalogue = markdown.slice(
    markdown.indexOf('## Event catalogue'),
    markdown.indexOf('## Retries, time-outs and statuses'),
  );
  const schemas = new Map<string, unknown>();
  for (const [, heading, json] of catalogue.matchAll(/### (.+?)\n[\s\S]*?```json\n([\s\S]*?)```/g))
    for (const [, type] of heading!.matchAll(/`([^`]+)`/g)) schemas.set(type!, JSON.parse(json!));
  return schemas;
}

describe('the event catalogue (common/contracts/event-catalogue.ts)', () => {
  it('HOOK-10: when the catalogue is served, then every event type has a schema, the one docs/webhooks.md publishes', () => {
    const published = publishedSchemas();
    expect([...published.keys()].sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES)
      expect([type, EVENT_CATALOGUE[type].schema]).toEqual([type, published.get(type)]);
  });
});
