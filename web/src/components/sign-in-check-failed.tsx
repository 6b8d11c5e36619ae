import { ApiError } from '../lib/api-request.ts';

/**
 * The first sign-in check got no usable answer. Part of the first page, so it reads the error
 * by hand instead of through the error table (whose schemas would bring zod along).
 */
export function SignInCheckFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const reason =
    error instanceof ApiError ? `The server answered ${error.status}. Please try again.` : 'Could not reach the server. Check your connection and try again.';
  return (
    <main className="flex min-h-full items-center justify-center p-4">
      <div role="alert" className="flex flex-col items-center gap-3 rounded-lg border border-red-200 bg-red-50 p-6 text-center">
        <p className="font-semibold text-red-900">Could not check your sign-in</p>
        <p className="text-sm text-red-800">{reason}</p>
        <button
          type="button"
          onClick={onRetry}
          className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-900 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          Try again
        </button>
      </div>
    </main>
  );
}
