import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { developmentSecret } from '../../scripts/lib/development-secret';

describe("npm start's kept INTERNAL_SECRET", () => {
  const file = () => path.join(mkdtempSync(path.join(tmpdir(), 'dev-secret-')), 'sub', 'secret');

  it('when no secret is kept, then one is made (64 hex) and stored readable by its owner only', () => {
    const where = file();
    const { secret, created } = developmentSecret(where);
    expect(created).toBe(true);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(where, 'utf8').trim()).toBe(secret);
    expect(statSync(where).mode & 0o777).toBe(0o600);
  });

  it('when a secret is kept, then every later run gets the same one', () => {
    const where = file();
    const first = developmentSecret(where).secret;
    expect(developmentSecret(where)).toEqual({ secret: first, created: false });
  });

  it('when the kept file holds something else, then it is refused with a message and left as it is', () => {
    const where = file();
    developmentSecret(where);
    writeFileSync(where, 'short\n');
    expect(() => developmentSecret(where)).toThrow(/does not hold a secret of 64 hex characters/);
    expect(readFileSync(where, 'utf8')).toBe('short\n');
  });
});
