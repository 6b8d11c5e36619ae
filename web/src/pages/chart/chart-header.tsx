import type { ReactNode } from 'react';
import { PageHeader } from '../../components/layout/page-header.tsx';

/** The title block of /chart, the same whether the user may read the chart or not. */
export function ChartHeader({ subtitle, actions }: { subtitle?: string; actions?: ReactNode }) {
  return <PageHeader title="Chart" subtitle={subtitle ?? 'Allergies, problems, medications and vital signs'} actions={actions} />;
}
