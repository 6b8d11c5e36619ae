import { useSyncExternalStore } from 'react';

/**
 * The current time to the minute, for what a screen offers by the clock (a visit's buttons by its
 * time): every component that asks re-renders when the minute turns, from one timer shared by
 * all of them, which runs only while one of them is mounted.
 */
const listeners = new Set<() => void>();
let minute = Math.floor(Date.now() / 60_000);
let timer: ReturnType<typeof setTimeout> | null = null;

function tick() {
  minute = Math.floor(Date.now() / 60_000);
  for (const listener of listeners) listener();
  schedule();
}

function schedule() {
  timer = setTimeout(tick, 60_000 - (Date.now() % 60_000) + 50);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (listeners.size === 1) {
    minute = Math.floor(Date.now() / 60_000);
    schedule();
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearTimeout(timer);
      timer = null;
    }
  };
}

/** Now; the component renders again each time the minute turns. */
export function useNow(): Date {
  useSyncExternalStore(subscribe, () => minute);
  return new Date();
}
