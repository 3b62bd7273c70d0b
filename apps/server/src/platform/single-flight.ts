/** Wraps `fn` so that calls made while one is in flight share its result. */
export function singleFlight<A, R>(fn: (arg: A) => Promise<R>): (arg: A) => Promise<R> {
  let inFlight: Promise<R> | null = null;
  return (arg) => {
    if (!inFlight) {
      inFlight = fn(arg).finally(() => {
        inFlight = null;
      });
    }
    return inFlight;
  };
}
