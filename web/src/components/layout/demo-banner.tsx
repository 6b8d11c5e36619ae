import { FlaskConical } from 'lucide-react';
import type { ReactNode } from 'react';
import { DEMO_BANNER_TEXT } from '#domain/demo-mode';
import { isDemoMode } from '../../lib/demo-mode.ts';

/**
 * In demo mode every page, signed in or not, sits under a banner saying so: the demo clinic's
 * password is published, so nobody may take it for a place for patient data. The banner is its
 * own row above the page, so it covers nothing, and the page keeps the rest of the screen.
 */
export function DemoFrame({ children }: { children: ReactNode }) {
  if (!isDemoMode()) return children;
  return (
    <div className="flex h-full flex-col">
      <DemoBanner />
      <div className="min-h-0 flex-1">{children}</div>
    </div>
  );
}

function DemoBanner() {
  return (
    <div
      role="status"
      data-testid="demo-banner"
      className="flex shrink-0 items-center justify-center gap-2 border-b border-amber-300 bg-amber-100 px-4 py-1.5 text-center text-sm font-semibold text-amber-950"
    >
      <FlaskConical className="size-4 shrink-0" aria-hidden="true" />
      <span>{DEMO_BANNER_TEXT}</span>
    </div>
  );
}
