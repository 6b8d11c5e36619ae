import type { ReactNode } from 'react';
import { PageHeader } from '../../components/layout/page-header.tsx';

/** The title block of /lab-orders, the same whether the user may read lab orders or not. */
export function LabOrdersHeader({ actions }: { actions?: ReactNode }) {
  return <PageHeader title="Lab Orders" subtitle="Order tests, track specimens, and review results" actions={actions} />;
}
