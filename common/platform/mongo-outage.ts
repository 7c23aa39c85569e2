/**
 * Errors that say MongoDB could not be reached (down, restarting, unreachable), rather than that
 * it refused what was asked: worth a retry later, and a 503 to a caller, not a 500.
 */
export function isMongoUnavailable(error: unknown): boolean {
  const name = (error as Error | undefined)?.name ?? '';
  if (
    /^Mongo(Network|NetworkTimeout|ServerSelection|NotConnected|TopologyClosed|PoolCleared)Error$/.test(
      name,
    )
  )
    return true;
  // Mongoose queues operations while disconnected and gives up after bufferTimeoutMS.
  if (name === 'MongooseError' && /buffering timed out/.test((error as Error).message)) return true;
  // bulkWrite and insertMany wrap what went wrong (e.g. server selection) in a MongoBulkWriteError.
  const wrapped = (error as { errorResponse?: unknown } | undefined)?.errorResponse;
  return wrapped instanceof Error && wrapped !== error && isMongoUnavailable(wrapped);
}
