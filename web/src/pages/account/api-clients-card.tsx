import { useState } from 'react';
import { Network } from 'lucide-react';
import { apiClientStanding, fhirScopeLabel, type TApiClient } from '#domain/api-clients';
import { formatClinicTime } from '#domain/clinic-time';
import { useAcceptApiClient, useDeclineApiClient, useMyApiClients } from '../../api/account/my-api-clients.ts';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { ApiClientStandingBadge } from '../../components/api-client-standing.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { ProofDialog } from '../../components/second-factor/proof-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';

/**
 * Software reading the record as her (issue 47): an admin may make an API client that reads with
 * her access, but it works only once she accepts it here, and she may stop it at any time. Shown
 * only when there is one: most staff never have any.
 */
export function ApiClientsCard({ hasFactor }: { hasFactor: boolean }) {
  const clients = useMyApiClients();
  if (clients.isPending || (clients.isSuccess && clients.data.length === 0)) return null;
  return (
    <Card data-testid="my-api-clients">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Network className="size-5 text-slate-600" aria-hidden="true" />
          API clients reading as you
        </CardTitle>
        <CardDescription>
          Other systems that read records through the FHIR API with your access. One works only once you accept it; every read it makes is in the audit trail
          under your name. None of them opens a restricted patient's record.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {clients.isError ? (
          <ErrorState title="Could not load your API clients" error={clients.error} onRetry={() => void clients.refetch()} />
        ) : (
          <ul className="divide-y rounded-md border">
            {clients.data.map((client) => (
              <ApiClientItem key={client.id} client={client} hasFactor={hasFactor} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function ApiClientItem({ client, hasFactor }: { client: TApiClient; hasFactor: boolean }) {
  const { timeZone } = useClinicTimeZone();
  const accept = useAcceptApiClient();
  const decline = useDeclineApiClient();
  const [asking, setAsking] = useState<'accept' | 'decline' | null>(null);
  const standing = apiClientStanding(client);
  const accepted = () => {
    setAsking(null);
    toast({ title: 'API client accepted', description: `${client.name} may now read records with your access.`, variant: 'success' });
  };
  const acceptWithoutProof = () => accept.mutate({ id: client.id }, { onSuccess: accepted, onError: (e) => reportMutationError(e, 'Could not accept it') });
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 p-3" data-testid="my-api-client">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
          <span className="break-words">{client.name}</span>
          <ApiClientStandingBadge client={client} />
        </p>
        <p className="text-sm text-slate-700">
          Made by {client.createdByName ?? 'a former admin'} · may read: {client.scopes.map(fhirScopeLabel).join(', ')}
        </p>
        {timeZone && (
          <p className="text-xs text-slate-600">
            Created {formatClinicTime(client.createdAt, timeZone)}
            {client.lastUsedAt && ` · last token ${formatClinicTime(client.lastUsedAt, timeZone)}`}
          </p>
        )}
      </div>
      {standing !== 'revoked' && (
        <div className="flex gap-2">
          {standing === 'waiting' && (
            <Button size="sm" onClick={() => (hasFactor ? setAsking('accept') : acceptWithoutProof())} disabled={accept.isPending}>
              Accept<span className="sr-only"> {client.name}</span>
            </Button>
          )}
          <Button size="sm" variant="outline" onClick={() => setAsking('decline')}>
            {standing === 'waiting' ? 'Decline' : 'Stop'}
            <span className="sr-only"> {client.name}</span>
          </Button>
        </div>
      )}
      {asking === 'accept' && (
        <ProofDialog
          title={`Accept ${client.name}?`}
          description="It will read records with your access until you or an admin stop it. Confirm with a code first."
          confirmLabel="Accept"
          pending={accept.isPending}
          onClose={() => setAsking(null)}
          onProof={(proof, failed) => accept.mutate({ id: client.id, proof }, { onSuccess: accepted, onError: failed })}
        />
      )}
      <ConfirmDialog
        open={asking === 'decline'}
        title={standing === 'waiting' ? `Decline ${client.name}?` : `Stop ${client.name}?`}
        description="It will not read records with your access again. An admin can make a new one if it is needed."
        confirmLabel={standing === 'waiting' ? 'Decline' : 'Stop it'}
        pending={decline.isPending}
        onCancel={() => setAsking(null)}
        onConfirm={() =>
          decline.mutate(client.id, {
            onSuccess: () => {
              setAsking(null);
              toast({ title: standing === 'waiting' ? 'API client declined' : 'API client stopped' });
            },
            onError: (e) => reportMutationError(e, 'Could not stop it', { withReason: true }),
          })
        }
      />
    </li>
  );
}
