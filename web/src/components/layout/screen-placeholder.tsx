import { Construction } from 'lucide-react';
import { Card, CardContent } from '../ui/card.tsx';
import { PageHeader } from './page-header.tsx';

/** Stands in for a screen whose issue has not landed yet, so the route is never a broken page. */
export function ScreenPlaceholder({ title, subtitle }: { title: string; subtitle?: string }) {
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title={title} subtitle={subtitle} />
      <Card>
        <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
          <Construction className="size-8 text-slate-500" aria-hidden="true" />
          <p className="font-medium text-slate-900">This screen is on its way</p>
          <p className="max-w-md text-sm text-slate-600">{title} is being built. Use the sidebar to reach the rest of the clinic workspace.</p>
        </CardContent>
      </Card>
    </div>
  );
}
