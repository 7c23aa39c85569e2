/**
 * A request's path through the facade is a list of named steps over one call's state, composed
 * once per route at start-up (route-wiring.ts). A step that starts work without waiting for it
 * returns nothing; one that waits returns its promise, and the next step runs after it.
 */
export type Step<Call> = (call: Call) => void | Promise<void>;

export function pipeline<Call>(steps: ReadonlyArray<Step<Call>>): (call: Call) => Promise<void> {
  return async (call) => {
    for (const step of steps) {
      const pending = step(call);
      if (pending) await pending;
    }
  };
}

/** A started operation whose result may be dropped unread, without an unhandled rejection. */
export function started<T>(operation: Promise<T>): Promise<T> {
  operation.catch(() => undefined);
  return operation;
}
