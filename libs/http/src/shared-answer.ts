/**
 * An answer that is the same for every client (the public price list), kept in memory for
 * `ttlMs` and loaded once however many requests ask for it at the same moment: a burst of
 * requests costs one database read per process per `ttlMs`, not one connection each. A failed
 * load is not kept (the next request tries again); `invalidate()` drops the kept answer.
 */
export interface SharedAnswer<T> {
  get(): Promise<T>;
  invalidate(): void;
}

export function sharedAnswer<T>(load: () => Promise<T>, ttlMs: number): SharedAnswer<T> {
  let kept: { value: T; until: number } | undefined;
  let loading: Promise<T> | undefined;
  let generation = 0;
  return {
    get() {
      if (kept && kept.until > Date.now()) return Promise.resolve(kept.value);
      if (loading) return loading;
      const started = generation;
      loading = load().then(
        (value) => {
          loading = undefined;
          if (started === generation) kept = { value, until: Date.now() + ttlMs };
          return value;
        },
        (err: unknown) => {
          loading = undefined;
          throw err;
        },
      );
      return loading;
    },
    invalidate() {
      generation += 1;
      kept = undefined;
      loading = undefined;
    },
  };
}
