/** The largest amount taken, in magnitude: up to it every whole amount is exact as a double too. */
export const MAX_REVENUE_AMOUNT = 2 ** 53;
/**
 * Digits kept after the decimal point: any double of at least 0.0001 in magnitude, written out in
 * full from its shortest form (17 significant digits at most), fits.
 */
export const MAX_AMOUNT_FRACTION_DIGITS = 20;

export const AMOUNT_FORM = 'must be a number or a decimal string such as "-12.50"';

/** A plain decimal: sign, digits, and digits after a point. */
export const DECIMAL_AMOUNT = /^([+-]?)(\d+)(?:\.(\d+))?$/;
/** What String() gives for doubles under 1e-6 in magnitude (the only exponents under 2^53). */
const SMALL_EXPONENT = /^(-?)(\d)(?:\.(\d+))?e-(\d+)$/;
const MAX_INTEGER_PART = String(MAX_REVENUE_AMOUNT);

/** A double written out without an exponent, from its shortest round-trip form. */
function fullDecimal(value: number): string {
  const text = String(value);
  const small = SMALL_EXPONENT.exec(text);
  if (!small) return text;
  const [, sign, first, rest = '', exponent] = small;
  return `${sign}0.${'0'.repeat(Number(exponent) - 1)}${first}${rest}`;
}

/**
 * A revenue amount as its canonical decimal string (`"19.99"`, `"-5"`, `"0.30000000000000004"`):
 * exactly what was sent, a number as the shortest decimal that is that double, a string without
 * its leading or trailing zeros; or why it is refused. Strings take no exponent.
 */
export function readAmount(value: number | string): { amount: string } | { problem: string } {
  if (typeof value === 'number' && !Number.isFinite(value))
    return { problem: 'must be a finite number' };
  const parts = DECIMAL_AMOUNT.exec(typeof value === 'number' ? fullDecimal(value) : value);
  if (!parts) return { problem: AMOUNT_FORM };
  const [, sign, digits = '', fraction = ''] = parts;
  const whole = digits.replace(/^0+(?=\d)/, '');
  const decimals = fraction.replace(/0+$/, '');
  if (decimals.length > MAX_AMOUNT_FRACTION_DIGITS)
    return { problem: `must have at most ${MAX_AMOUNT_FRACTION_DIGITS} digits after the point` };
  if (
    whole.length > MAX_INTEGER_PART.length ||
    (whole.length === MAX_INTEGER_PART.length &&
      (whole > MAX_INTEGER_PART || (whole === MAX_INTEGER_PART && decimals !== '')))
  )
    return { problem: `must be at most 2^53 (${MAX_INTEGER_PART}) in magnitude` };
  const negative = sign === '-' && (whole !== '0' || decimals !== '');
  return { amount: `${negative ? '-' : ''}${whole}${decimals ? `.${decimals}` : ''}` };
}

/**
 * The ISO 4217 codes this runtime's ICU data knows (162 in Node 24: the currencies in use and a few
 * recently withdrawn, such as HRK; no precious metals, funds or XXX/XTS).
 */
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** The ISO 4217 code of `value` in upper case, or null when it is none. */
export function currencyCode(value: string): string | null {
  const code = value.toUpperCase();
  return /^[A-Z]{3}$/.test(code) && CURRENCIES.has(code) ? code : null;
}
