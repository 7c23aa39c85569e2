import { pagePathMatcher } from '../../common/contracts/goals';
import { validGoal } from '../../subgraphs/keys/src/services/goal-definition';

describe('pagePathMatcher', () => {
  it.each([
    ['/pricing', '/pricing', true],
    ['/pricing', '/pricing/', false],
    ['/pricing', '/pricing/team', false],
    ['/blog/*', '/blog/a', true],
    ['/blog/*', '/blog/a/b', true],
    ['/blog/*', '/blog/', true],
    ['/blog/*', '/blog', false],
    ['/blog*', '/blog', true],
    ['/blog*', '/blogging', true],
    ['/*/checkout', '/en/checkout', true],
    ['/*/checkout', '/en/us/checkout', true],
    ['/*/checkout', '/en/checkout/done', false],
    ['/a.b', '/a.b', true],
    ['/a.b', '/aXb', false],
    ['/(x)+[y]', '/(x)+[y]', true],
    ['/caf%C3%A9', '/caf%C3%A9', true],
  ])(
    'DATA-6: when the pattern %s meets the recorded path %s, then it matches: %s',
    (pattern, path, matches) => {
      expect(pagePathMatcher(pattern)(path)).toBe(matches);
    },
  );
});

describe('validGoal', () => {
  it('DATA-6: when a page goal is given without a name, then it is named after its path', () => {
    expect(validGoal({ kind: 'page', pagePath: ' /blog/* ' })).toEqual({
      kind: 'page',
      name: 'Visit /blog/*',
      pagePath: '/blog/*',
      eventName: null,
      currency: null,
    });
  });

  it('DATA-6: when an event goal has a lower-case currency and a blank name, then the currency is upper-cased and the name is the event name', () => {
    expect(
      validGoal({ kind: 'event', name: '  ', eventName: 'Purchase', currency: 'eur' }),
    ).toEqual({
      kind: 'event',
      name: 'Purchase',
      pagePath: null,
      eventName: 'Purchase',
      currency: 'EUR',
    });
  });

  it('DATA-6: when a page path has characters a URL encodes, then it is stored as the collector records paths', () => {
    expect(validGoal({ kind: 'page', pagePath: '/café/a b/*' }).pagePath).toBe(
      '/caf%C3%A9/a%20b/*',
    );
    expect(validGoal({ kind: 'page', pagePath: '//twice' }).pagePath).toBe('//twice');
  });

  it('DATA-6: when the default name would be too long, then it is shortened', () => {
    const { name } = validGoal({ kind: 'page', pagePath: `/${'a'.repeat(300)}` });
    expect(name).toHaveLength(120);
    expect(name.endsWith('…')).toBe(true);
  });

  it.each([
    ['a page goal without a path', { kind: 'page' as const }, 'needs pagePath'],
    [
      'a path without its leading slash',
      { kind: 'page' as const, pagePath: 'blog' },
      'start with /',
    ],
    ['a path with a query string', { kind: 'page' as const, pagePath: '/a?b=1' }, 'query string'],
    ['a path with a fragment', { kind: 'page' as const, pagePath: '/a#top' }, 'fragment'],
    ['a path too long', { kind: 'page' as const, pagePath: `/${'é'.repeat(100)}` }, '512'],
    [
      'a currency on a page goal',
      { kind: 'page' as const, pagePath: '/a', currency: 'EUR' },
      'currency goes with EVENT goals only',
    ],
    [
      'an event name on a page goal',
      { kind: 'page' as const, pagePath: '/a', eventName: 'Signup' },
      'eventName goes with EVENT goals only',
    ],
    ['an event goal without a name', { kind: 'event' as const }, 'needs eventName'],
    [
      'a path on an event goal',
      { kind: 'event' as const, eventName: 'Signup', pagePath: '/a' },
      'pagePath goes with PAGE goals only',
    ],
    ['an event name too long', { kind: 'event' as const, eventName: 'e'.repeat(101) }, '100'],
    [
      'an unknown currency',
      { kind: 'event' as const, eventName: 'Purchase', currency: 'EURO' },
      'ISO 4217',
    ],
    ['a name too long', { kind: 'event' as const, eventName: 'E', name: 'n'.repeat(121) }, '120'],
  ])('DATA-6: when %s is given, then invalid_parameters says why', (_case, input, mentions) => {
    let error: unknown;
    try {
      validGoal(input);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ extensions: { code: 'invalid_parameters', httpStatus: 400 } });
    expect((error as Error).message).toContain(mentions);
  });
});
