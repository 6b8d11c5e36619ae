import { useEffect, useState, useSyncExternalStore } from 'react';

/**
 * Code loaded with import() that a component can draw as soon as it has arrived, and that can
 * be asked for earlier (`load`). Used instead of React's lazy() for the signed-in app and its
 * screens: lazy() always suspends on first use, and React holds back what a Suspense boundary
 * reveals until 300 ms after it last showed a fallback, so a screen whose code was already here
 * still waited (docs/decisions/front-end-delivery.md).
 */
export interface TPreloadable<T> {
  /** Starts loading (once; again after a failure) and resolves with the code. */
  load(): Promise<T>;
  /** The code, once it has arrived. */
  current(): T | undefined;
  subscribe(listener: () => void): () => void;
}

export function preloadable<T>(importer: () => Promise<T>): TPreloadable<T> {
  let value: T | undefined;
  let pending: Promise<T> | undefined;
  const listeners = new Set<() => void>();
  return {
    load() {
      pending ??= importer().then(
        (loaded) => {
          value = loaded;
          listeners.forEach((listener) => listener());
          return loaded;
        },
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      );
      return pending;
    },
    current: () => value,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const noSubscription = () => () => undefined;

/**
 * The code once it is here (loading it if nobody has yet), else undefined: the caller draws a
 * spinner meanwhile. A failed load is thrown, as lazy() would.
 */
export function usePreloaded<T>(code: TPreloadable<T> | null): T | undefined {
  const loaded = useSyncExternalStore(code ? code.subscribe : noSubscription, () => code?.current());
  // A failed preload is not this component's failure: its own load tries again.
  const [failure, setFailure] = useState<{ code: TPreloadable<T>; error: unknown }>();
  useEffect(() => {
    if (code && !code.current()) code.load().catch((error: unknown) => setFailure({ code, error }));
  }, [code]);
  if (failure && failure.code === code) throw failure.error;
  return loaded;
}
