import { Spinner } from './ui/spinner.tsx';

/** Spec section 2: shown while the sign-in check runs (and while leaving for the login page). */
export function FullScreenLoading() {
  return (
    <div role="status" className="flex h-full min-h-screen flex-col items-center justify-center gap-3 bg-slate-50">
      <Spinner className="size-10" />
      <p className="text-sm font-medium text-slate-700">Loading...</p>
    </div>
  );
}
