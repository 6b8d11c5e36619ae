import { createElement, Fragment, useEffect, useState, type ReactNode } from 'react';

/**
 * A tiny toast store that works outside React too (the logged-out handling and query-cache
 * callbacks raise toasts). Spec section 9: at most one toast visible; a dismissed toast is
 * removed from memory after 1,000,000 ms (it is already hidden long before).
 */
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
const TOAST_REMOVE_DELAY_MS = 1_000_000;

export type TToastVariant = 'default' | 'destructive' | 'success';

export interface TToastInput {
  title?: ReactNode;
  description?: ReactNode;
  variant?: TToastVariant;
  /** Overrides the 5000 ms default display time. */
  duration?: number;
}

export interface TToast extends TToastInput {
  id: string;
  open: boolean;
}

type Listener = (toasts: TToast[]) => void;

let toasts: TToast[] = [];
const listeners = new Set<Listener>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();
let nextId = 0;

function publish(next: TToast[]): void {
  toasts = next;
  for (const listener of listeners) listener(toasts);
}

function scheduleRemoval(id: string): void {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      publish(toasts.filter((t) => t.id !== id));
    }, TOAST_REMOVE_DELAY_MS),
  );
}

export function dismissToast(id?: string): void {
  for (const t of toasts) if (id === undefined || t.id === id) scheduleRemoval(t.id);
  publish(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
}

export function toast(input: TToastInput): { id: string; dismiss: () => void } {
  nextId = (nextId + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(nextId);
  publish([{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

export function useToasts(): TToast[] {
  const [state, setState] = useState(toasts);
  useEffect(() => {
    listeners.add(setState);
    setState(toasts);
    return () => {
      listeners.delete(setState);
    };
  }, []);
  return state;
}

/**
 * A toast's description in two lines: the spec's catalogue words (section 8) as they are, then
 * what this case adds (who, which role, the server's reason).
 */
export function withDetail(text: string, detail: string): ReactNode {
  return createElement(Fragment, null, createElement('span', { className: 'block' }, text), createElement('span', { className: 'block opacity-90' }, detail));
}
