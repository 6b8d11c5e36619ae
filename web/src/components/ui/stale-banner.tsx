import { RefreshCw } from 'lucide-react';
import { Button } from './button.tsx';
import { Spinner } from './spinner.tsx';

/**
 * Someone else saved the record after this form read it (a 409): the server's reason and a way
 * to read the record again, so the user redoes her change on the new version.
 */
export function StaleBanner({
  message,
  reloadLabel,
  reloading,
  onReload,
  testId,
}: {
  message: string;
  reloadLabel: string;
  reloading: boolean;
  onReload: () => void;
  testId: string;
}) {
  return (
    <div
      role="alert"
      data-testid={testId}
      className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm sm:flex-row sm:items-center"
    >
      <p className="flex-1 text-amber-900">{message}</p>
      <Button variant="outline" size="sm" onClick={onReload} disabled={reloading}>
        {reloading ? <Spinner className="size-4" /> : <RefreshCw aria-hidden="true" />}
        {reloadLabel}
      </Button>
    </div>
  );
}
