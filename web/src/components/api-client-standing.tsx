import { apiClientStanding, type TApiClient, type TApiClientStanding } from '#domain/api-clients';
import { Badge } from './ui/badge.tsx';

const STANDING: Record<TApiClientStanding, { label: string; className: string }> = {
  waiting: { label: 'Waiting for acceptance', className: 'bg-amber-100 text-amber-900' },
  active: { label: 'Active', className: 'bg-green-100 text-green-800' },
  revoked: { label: 'Revoked', className: 'bg-slate-200 text-slate-700' },
};

/** Where an API client stands, the same on the Admin Panel and on the acting user's Security page. */
export function ApiClientStandingBadge({ client }: { client: Pick<TApiClient, 'acceptedAt' | 'revokedAt'> }) {
  const standing = STANDING[apiClientStanding(client)];
  return (
    <Badge className={`border-transparent ${standing.className}`} data-testid="api-client-standing">
      {standing.label}
    </Badge>
  );
}
