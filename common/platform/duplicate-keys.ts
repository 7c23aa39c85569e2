const DUPLICATE_KEY = 11000;

type WriteError = { index?: number; code?: number; err?: { code?: number } };

/**
 * When a write failed only because documents already existed (E11000, what an idempotent write
 * expects on a redelivery): the indexes of the refused documents in a bulk write (empty for a
 * single write). Null for any other failure, including a bulk write that failed as a whole
 * (MongoDB unreachable: no write errors at all), which must not pass for "already stored".
 */
export function onlyDuplicateKeys(error: unknown): number[] | null {
  const { writeErrors, code } = error as {
    writeErrors?: WriteError[] | WriteError;
    code?: number;
  };
  if (writeErrors === undefined) return code === DUPLICATE_KEY ? [] : null;
  const list = Array.isArray(writeErrors) ? writeErrors : [writeErrors];
  if (list.length === 0 || list.some((e) => (e.code ?? e.err?.code) !== DUPLICATE_KEY)) return null;
  return list.map((e) => e.index ?? 0);
}
