import { Pencil, Plus, Zap } from 'lucide-react';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import type { TInteractionPair, TInteractionPairSeverity, TShippedInteractionPair } from '#domain/interaction-pairs';
import { useInteractionPairs, useSaveInteractionPair } from '../../api/formulary/interaction-pairs.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { LoadingBlock } from '../../components/ui/spinner.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';

// The editor loads the first time it is opened.
const InteractionPairDialog = lazy(async () => ({ default: (await import('./interaction-pair-dialog.tsx')).InteractionPairDialog }));

const SEVERITY_BADGES: Record<TInteractionPairSeverity, { label: string; className: string }> = {
  high: { label: 'High: a reason to sign', className: 'border-red-300 bg-red-50 text-red-800' },
  moderate: { label: 'Moderate: shown', className: 'border-slate-300 bg-slate-50 text-slate-700' },
};
const SOURCE_LABELS: Record<TShippedInteractionPair['source'], string> = { 'onc-2012': 'ONC high-priority list', clinic: 'Shipped example' };

const SeverityBadge = ({ severity }: { severity: TInteractionPairSeverity }) => (
  <Badge className={SEVERITY_BADGES[severity].className}>{SEVERITY_BADGES[severity].label}</Badge>
);

/**
 * Under the Formulary tab (formulary.manage, issue 52): the clinic's own drug–drug interaction
 * pairs, which every check of a prescription weighs beside the shipped ones; added, edited,
 * retired and restored (never deleted: prescriptions signed over one keep its alert). The shipped
 * pairs are listed too, read-only.
 */
export function InteractionPairsCard() {
  const pairs = useInteractionPairs();
  const save = useSaveInteractionPair();
  const [editing, setEditing] = useState<{ pair: TInteractionPair | null } | null>(null);
  const toggle = (pair: TInteractionPair) =>
    save.mutate(
      { id: pair.id, body: { isActive: !pair.isActive, updatedAt: pair.updatedAt } },
      {
        onSuccess: (saved) =>
          toast({ title: saved.isActive ? 'Pair restored' : 'Pair retired', description: `${saved.nameA} with ${saved.nameB}`, variant: 'success' }),
        onError: (error) => reportMutationError(error, pair.isActive ? 'Failed to retire the pair' : 'Failed to restore the pair', { withReason: true }),
      },
    );
  const togglingId = save.isPending ? save.variables.id : null;

  return (
    <Card data-testid="interaction-pairs-card">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3 space-y-0">
        <div className="min-w-60 flex-1 space-y-1.5">
          <CardTitle>The clinic&apos;s interaction pairs</CardTitle>
          <CardDescription>
            Drug–drug interactions the prescription checks raise besides the shipped ones: a drug from one side prescribed for a patient taking one from the
            other, in either order.
          </CardDescription>
        </div>
        <Button onClick={() => setEditing({ pair: null })}>
          <Plus aria-hidden="true" />
          Add Pair
        </Button>
      </CardHeader>
      <CardContent className="space-y-4">
        {pairs.isPending ? (
          <div role="status" aria-label="Loading the interaction pairs" className="space-y-2">
            <Skeleton className="h-14 w-full" />
            <Skeleton className="h-14 w-full" />
          </div>
        ) : pairs.isError ? (
          <ErrorState title="Could not load the interaction pairs" error={pairs.error} onRetry={() => void pairs.refetch()} />
        ) : (
          <>
            {pairs.data.clinic.length === 0 ? (
              <div
                data-testid="interaction-pairs-empty"
                className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-8 text-center text-sm text-slate-600"
              >
                <Zap className="size-8 text-slate-400" aria-hidden="true" />
                <p className="font-medium text-slate-900">No pairs of the clinic&apos;s yet</p>
                <p>The checks use the shipped pairs below. Add the interactions your clinic wants flagged too.</p>
              </div>
            ) : (
              <ul className="divide-y rounded-md border" data-testid="interaction-pair-list">
                {pairs.data.clinic.map((pair) => (
                  <li
                    key={pair.id}
                    data-testid="interaction-pair-row"
                    data-retired={!pair.isActive}
                    className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center"
                  >
                    <PairText pair={pair} badges={!pair.isActive && <Badge className="border-amber-300 bg-amber-50 text-amber-800">Retired</Badge>} />
                    <div className="flex gap-2 self-start sm:self-auto">
                      <Button variant="outline" size="sm" onClick={() => setEditing({ pair })}>
                        <Pencil aria-hidden="true" />
                        Edit<span className="sr-only"> {`${pair.nameA} with ${pair.nameB}`}</span>
                      </Button>
                      <Button variant="outline" size="sm" onClick={() => toggle(pair)} disabled={togglingId === pair.id}>
                        {pair.isActive ? 'Retire' : 'Restore'}
                        <span className="sr-only"> {`${pair.nameA} with ${pair.nameB}`}</span>
                      </Button>
                    </div>
                  </li>
                ))}
              </ul>
            )}
            <details className="rounded-md border" data-testid="shipped-pairs">
              <summary className="cursor-pointer p-3 text-sm font-medium text-slate-900">
                The pairs the app ships ({pairs.data.shipped.length}), read-only
              </summary>
              <ul className="divide-y border-t">
                {pairs.data.shipped.map((pair, i) => (
                  // The shipped list is fixed: its order is its identity.
                  <li key={i} className="p-3">
                    <PairText pair={pair} badges={<Badge className="border-slate-300 bg-slate-50 text-slate-700">{SOURCE_LABELS[pair.source]}</Badge>} />
                  </li>
                ))}
              </ul>
            </details>
          </>
        )}
      </CardContent>
      {editing && (
        <Suspense fallback={<LoadingBlock />}>
          <InteractionPairDialog key={editing.pair?.id ?? 'new'} pair={editing.pair} onClose={() => setEditing(null)} />
        </Suspense>
      )}
    </Card>
  );
}

/** A pair's two sides by name, its severity in words, the line a prescriber reads, and what each side holds. */
function PairText({ pair, badges }: { pair: Omit<TShippedInteractionPair, 'source'>; badges: ReactNode }) {
  return (
    <div className="min-w-0 flex-1">
      <p className="flex flex-wrap items-center gap-2">
        <span className="font-semibold break-words text-slate-900">
          {pair.nameA} with {pair.nameB}
        </span>
        <SeverityBadge severity={pair.severity} />
        {badges}
      </p>
      <p className="text-sm break-words text-slate-700">{pair.effect}</p>
      <p className="text-xs break-words text-slate-500">
        {pair.nameA}: {pair.ingredientsA.join(', ')} · {pair.nameB}: {pair.ingredientsB.join(', ')}
      </p>
    </div>
  );
}
