import { tableOf } from '../../subgraphs/analytics/src/engine/event-table';

describe('the engine’s table name of a website', () => {
  it('when the id is an ObjectId, then the table is named after it', () => {
    expect(tableOf('65A1B2C3D4E5F60718293A4B')).toBe('ev_65a1b2c3d4e5f60718293a4b');
  });

  it('when two ids that are not ObjectIds share a long prefix, then their tables differ and are safe SQL names', () => {
    const prefix = 'x'.repeat(40);
    const first = tableOf(`${prefix}-a`);
    const second = tableOf(`${prefix}-b`);
    expect(first).not.toBe(second);
    expect(first).toMatch(/^ev_x[0-9a-f]{48}$/);
  });
});
