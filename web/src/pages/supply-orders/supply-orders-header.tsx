import type { ReactNode } from 'react';
import { PageHeader } from '../../components/layout/page-header.tsx';

/** The title block of /supply-orders, the same whether the user may read supply orders or not. */
export function SupplyOrdersHeader({
  subtitle = 'Order supplies, keep track of stock, and confirm pickups',
  actions,
}: {
  subtitle?: string;
  actions?: ReactNode;
}) {
  return <PageHeader title="Supply Orders" subtitle={subtitle} actions={actions} />;
}
