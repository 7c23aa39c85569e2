import { parseIsoDateTime, parseIsoInstant } from '../../common/platform/iso-instant';

describe('parseIsoInstant', () => {
  it.each([
    ['2027-03-01', '2027-03-01T00:00:00.000Z'],
    ['2028-02-29', '2028-02-29T00:00:00.000Z'],
    ['2027-03-01T12:30Z', '2027-03-01T12:30:00.000Z'],
    ['2027-03-01T12:30:15.250+02:00', '2027-03-01T10:30:15.250Z'],
    ['9999-12-31T23:59:59Z', '9999-12-31T23:59:59.000Z'],
  ])('when given %s, then it is %s', (value, iso) => {
    expect(parseIsoInstant(value)?.toISOString()).toBe(iso);
  });

  it.each([
    '2099-02-31',
    '2027-02-29',
    '2027-13-01',
    '2027-00-10',
    '2027-03-01T24:00Z',
    '2027-03-01T12:60Z',
    '2027-03-01T12:00',
    '+099999-01-01',
    '99999',
    'not a date',
    '2027-3-1',
    '',
  ])('when given %j, then it is refused', (value) => {
    expect(parseIsoInstant(value)).toBeNull();
  });
});

describe('parseIsoDateTime', () => {
  it('when given a date-time with its offset, then it is that instant', () => {
    expect(parseIsoDateTime('2027-03-01T12:30:15+02:00')?.toISOString()).toBe(
      '2027-03-01T10:30:15.000Z',
    );
  });

  it.each(['2027-03-01', '2027-02-31T00:00:00Z', '2027-03-01T12:00'])(
    'when given %j, then it is refused',
    (value) => {
      expect(parseIsoDateTime(value)).toBeNull();
    },
  );
});
