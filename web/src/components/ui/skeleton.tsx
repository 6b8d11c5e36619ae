import type { ComponentProps } from 'react';
import { cn } from '../../lib/utils.ts';

/** A grey placeholder block; hidden from assistive technology, which gets a status text instead. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-slate-200', className)} {...props} />;
}
