import { TriangleExclamationPoint } from 'lucide-react';
import { describeApiError } from '../lib/api-errors.ts';
import { Button } from './ui/button.tsx';

/** A failed load, with the server's reason and a way to try again. */
export function ErrorState({ title, error, onRetry }: { title: string; error: unknown; onRetry?: () => void }) {
  const { message } = describeApiError(error);
  return (
    <div role="alert" className="flex flex-col items-center gap-3 rounded-lg border border-red-200 bg-red-50 p-6 text-center">
      <TriangleExclamationPoint className="size-6 text-red-700" aria-hidden="true" />
      <div>
        <p className="font-semibold text-red-900">{title}</p>
        <p className="text-sm text-red-800">{message}</p>
      </div>
      {onRetry && (
        <Button variant="outline" size="sm" onClick={onRetry}>
          Try again
        </Button>
      )}
    </div>
  );
}
