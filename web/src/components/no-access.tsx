import { ShieldOff } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent } from './ui/card.tsx';

/**
 * A screen's answer to a role without its records (a supplier on patients or appointments):
 * said plainly under the screen's own header, and no API call is made.
 */
export function NoAccess({ header, testId, title, children }: { header: ReactNode; testId: string; title: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-7xl">
      {header}
      <Card data-testid={testId}>
        <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
          <ShieldOff className="size-8 text-slate-500" aria-hidden="true" />
          <p className="font-semibold text-slate-900">{title}</p>
          <p className="max-w-md text-sm text-slate-600">{children}</p>
        </CardContent>
      </Card>
    </div>
  );
}
