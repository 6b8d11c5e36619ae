import { Boxes, ClipboardList, MessageSquare, PackageOpen, Truck, type LucideIcon } from 'lucide-react';
import { Link } from 'wouter';
import type { TSuppliesSummary } from '#domain/supplies';
import { useDashboardStats } from '../../api/dashboard/dashboard-stats.ts';
import { useSuppliesSummary } from '../../api/supplies/supplies-summary.ts';
import { cn } from '../../lib/utils.ts';
import { ErrorState } from '../error-state.tsx';
import { Card, CardContent } from '../ui/card.tsx';
import { Skeleton } from '../ui/skeleton.tsx';

type TOpenStatus = keyof TSuppliesSummary['openOrders'];

const CARD_LINK = 'block h-full rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2';

/** A supplier's open orders by status (the spec's Ordered → Processing → Ready for pickup), each leading to that list. */
const SUPPLIER_CARDS: { status: TOpenStatus; label: string; note: string; icon: LucideIcon; tint: string }[] = [
  { status: 'ordered', label: 'Ordered', note: 'Waiting for you', icon: ClipboardList, tint: 'bg-slate-100 text-slate-700' },
  { status: 'processing', label: 'Processing', note: 'Being prepared', icon: PackageOpen, tint: 'bg-blue-50 text-blue-700' },
  { status: 'ready_for_pickup', label: 'Ready for pickup', note: 'Waiting for the clinic', icon: Truck, tint: 'bg-orange-50 text-orange-700' },
];

function StatCard({
  testId,
  label,
  value,
  note,
  icon: Icon,
  tint,
  href,
}: {
  testId: string;
  label: string;
  value: number | null;
  note: string;
  icon: LucideIcon;
  tint: string;
  href: string;
}) {
  return (
    <li>
      <Link href={href} className={CARD_LINK} data-testid={`${testId}-link`}>
        <Card data-testid={testId} className="h-full transition-colors hover:border-slate-300 hover:bg-slate-50">
          <CardContent className="flex h-full items-start justify-between gap-3 p-5">
            <div className="flex h-full flex-col">
              <p className="text-sm font-medium text-slate-600">{label}</p>
              {value !== null ? <p className="mt-1 text-3xl font-bold text-slate-900">{value}</p> : <Skeleton className="mt-2 h-8 w-16" />}
              <p className="mt-auto pt-1 text-xs text-slate-600">{note}</p>
            </div>
            <span className={`flex size-10 shrink-0 items-center justify-center rounded-lg ${tint}`}>
              <Icon className="size-5" aria-hidden="true" />
            </span>
          </CardContent>
        </Card>
      </Link>
    </li>
  );
}

/**
 * A supplier's figures in place of the clinic's patient cards (issue 31: no patient data for
 * her): her open orders by status, from GET /api/supplies/summary, and her unread messages.
 */
export function SupplierStatCards() {
  const summary = useSuppliesSummary();
  const stats = useDashboardStats();
  if (summary.isError) return <ErrorState title="Could not load your orders' figures" error={summary.error} onRetry={() => void summary.refetch()} />;
  return (
    <section aria-labelledby="stats-heading">
      <h2 id="stats-heading" className="sr-only">
        Your orders
      </h2>
      {summary.isPending && (
        <p role="status" className="sr-only">
          Loading your orders' figures
        </p>
      )}
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {SUPPLIER_CARDS.map((card) => (
          <StatCard
            key={card.status}
            testId={`stat-${card.status}`}
            label={card.label}
            value={summary.data ? summary.data.openOrders[card.status] : null}
            note={card.note}
            icon={card.icon}
            tint={card.tint}
            href={`/supply-orders?status=${card.status}`}
          />
        ))}
        <StatCard
          testId="stat-unreadMessages"
          label="Unread Messages"
          value={stats.data ? stats.data.unreadMessages : stats.isError ? 0 : null}
          note="In Team Chat"
          icon={MessageSquare}
          tint="bg-purple-50 text-purple-700"
          href="/team-chat"
        />
      </ul>
    </section>
  );
}

/**
 * 'Low stock' for those who order supplies: how many items are at or below their reorder point
 * (and how many expire within 30 days), leading to the Stock tab. A strip under the clinic's
 * four cards, so their row stays as it is.
 */
export function LowStockCard() {
  const { data, isPending, isError } = useSuppliesSummary();
  // The clinic's figures above matter more: a failed read leaves a quiet line, not a second alert.
  const low = data?.lowStockItems ?? null;
  const expiring = data?.expiringItems ?? null;
  return (
    <section aria-labelledby="low-stock-card-heading">
      <Link href="/supply-orders?tab=stock" className={CARD_LINK}>
        <Card data-testid="stat-lowStockItems" className="transition-colors hover:border-slate-300 hover:bg-slate-50">
          <CardContent className="flex flex-wrap items-center gap-x-4 gap-y-2 p-4">
            <span className={cn('flex size-10 shrink-0 items-center justify-center rounded-lg', low ? 'bg-red-50 text-red-700' : 'bg-green-50 text-green-700')}>
              <Boxes className="size-5" aria-hidden="true" />
            </span>
            <div className="min-w-0 flex-1">
              <h2 id="low-stock-card-heading" className="text-sm font-medium text-slate-600">
                Low stock
              </h2>
              {isPending ? (
                <Skeleton className="mt-1 h-6 w-40" />
              ) : isError ? (
                <p className="text-sm text-slate-700">Could not load the stock figures</p>
              ) : (
                <p className="text-sm text-slate-700">
                  <span className="mr-1 text-2xl font-bold text-slate-900 tabular-nums" data-testid="stat-lowStockItems-value">
                    {low ?? 0}
                  </span>
                  {low === 1 ? 'item' : 'items'} at or below the reorder point
                  {expiring !== null && expiring > 0 && <span className="text-amber-900"> · {expiring} expiring within 30 days</span>}
                </p>
              )}
            </div>
            <span className="text-sm font-medium text-blue-800 underline-offset-4 hover:underline">View stock</span>
          </CardContent>
        </Card>
      </Link>
    </section>
  );
}
