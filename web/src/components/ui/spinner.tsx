import { LoaderCircle } from 'lucide-react';
import { cn } from '../../lib/utils.ts';

export function Spinner({ className }: { className?: string }) {
  return <LoaderCircle aria-hidden="true" className={cn('size-6 animate-spin text-primary', className)} />;
}

/** A spinner in a block of its own, for a form or panel whose code or data is on its way. */
export function LoadingBlock() {
  return (
    <div className="flex justify-center py-10" role="status">
      <Spinner className="size-6" />
      <span className="sr-only">Loading...</span>
    </div>
  );
}
