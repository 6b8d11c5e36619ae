import { Download } from 'lucide-react';
import { useLocation, useSearch } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { useAuditEvents, type TAuditFilterValues } from '../../api/audit/audit-events.ts';
import { auditExportHref } from '../../api/audit/audit-export.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { buttonClass } from '../../components/ui/button-variants.ts';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { LoadingBlock } from '../../components/ui/spinner.tsx';
import { useIsMobile } from '../../hooks/use-is-mobile.ts';
import { fullName } from '../../lib/patient-format.ts';
import { adminHref } from '../../lib/admin-tabs.ts';
import { AuditChainCheck } from './audit-chain-check.tsx';
import { AuditFilters, patientTag, useFilteredPatient } from './audit-filters.tsx';
import { AuditCards, AuditTable } from './audit-rows.tsx';

const FILTER_NAMES = ['actorId', 'patientId', 'action', 'outcome', 'from', 'to'] as const;

/** The filters the address holds (?tab=audit&patientId=...): a filtered view can be linked to and reloaded. */
function filtersOf(search: string): TAuditFilterValues {
  const params = new URLSearchParams(search);
  const filters: TAuditFilterValues = {};
  for (const name of FILTER_NAMES) {
    const value = params.get(name);
    if (value) filters[name] = value;
  }
  return filters;
}

/**
 * The Admin Panel's Audit Trail (issue 20, admin only): every recorded access, filtered by who,
 * which patient (including the lists that showed them), action, outcome and date, newest first;
 * exported as CSV with the same filters; and the chain checked on request (audit-chain-check.tsx).
 */
export function AuditTab(_props: { user: TCurrentUser }) {
  const [, navigate] = useLocation();
  const filters = filtersOf(useSearch());
  const setFilters = (next: TAuditFilterValues) => navigate(adminHref('audit', next), { replace: true });

  return (
    <section aria-labelledby="audit-title" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="audit-title" className="text-lg font-semibold text-slate-900">
            Audit Trail
          </h2>
          <p className="text-sm text-slate-600">Every access to patient records and the panel, newest first. Times in the clinic's time zone.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <a href={auditExportHref(filters)} download className={buttonClass({ variant: 'outline', size: 'sm' })} data-testid="audit-export">
            <Download aria-hidden="true" />
            Export CSV
          </a>
        </div>
      </div>
      <AuditChainCheck />
      <AuditFilters filters={filters} onChange={setFilters} />
      <AuditResults filters={filters} />
    </section>
  );
}

function AuditResults({ filters }: { filters: TAuditFilterValues }) {
  const query = useAuditEvents(filters);
  const { timeZone } = useClinicTimeZone();
  const isMobile = useIsMobile();
  const filtered = useFilteredPatient(filters.patientId);
  const filteredName = filtered && filtered.lastName ? fullName(filtered) : null;
  const patientName = (id: string) => (id === filters.patientId && filteredName ? `${filteredName} (${patientTag(id)})` : patientTag(id));

  if (query.isPending) return <LoadingBlock />;
  if (query.isError && !query.isFetchNextPageError) {
    return <ErrorState title="Could not load the audit trail" error={query.error} onRetry={() => void query.refetch()} />;
  }
  const rows = query.data.pages.flatMap((page) => page.items);
  if (rows.length === 0) {
    return (
      <Card data-testid="audit-empty">
        <CardContent className="p-8 text-center">
          <p className="font-semibold text-slate-900">No audit events match these filters</p>
        </CardContent>
      </Card>
    );
  }

  const Rows = isMobile ? AuditCards : AuditTable;
  return (
    <div className="space-y-3">
      <p role="status" className="text-sm text-slate-600" data-testid="audit-count">
        {rows.length} {rows.length === 1 ? 'event' : 'events'} shown{query.hasNextPage ? ', more below' : ''}
      </p>
      <Rows rows={rows} timeZone={timeZone} patientName={patientName} />
      <LoadMore list={query} failedText="Could not load more events." />
    </div>
  );
}
