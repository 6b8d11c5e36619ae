import { useState, type ReactNode } from 'react';
import { KeyRound, ShieldAlert, ShieldCheck, Smartphone, Trash2 } from 'lucide-react';
import type { TCurrentUser } from '#domain/auth';
import { formatClinicTime } from '#domain/clinic-time';
import type { TEnrolment, TFactor, TFactorKind, TMyFactors } from '#domain/second-factor';
import { useMyFactors, useRemoveFactor, useRenewRecoveryCodes } from '../../api/account/my-factors.ts';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { PageHeader } from '../../components/layout/page-header.tsx';
import { ProofDialog } from '../../components/second-factor/proof-dialog.tsx';
import { RecoveryCodesPanel } from '../../components/second-factor/recovery-codes-panel.tsx';
import { PasskeyEnrolment } from '../../components/second-factor/passkey-enrolment.tsx';
import { TotpEnrolment } from '../../components/second-factor/totp-enrolment.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { checkSession } from '../../lib/session.ts';
import { ApiClientsCard } from './api-clients-card.tsx';
import { toast } from '../../lib/toast.ts';

const when = (iso: string | null, timeZone: string) => (iso ? formatClinicTime(iso, timeZone) : 'never');

/** /account/security: the user's own second factors (issue 33), reached from her profile menu. */
export function SecurityPage(_props: { user: TCurrentUser }) {
  const query = useMyFactors();
  return (
    <div className="max-w-3xl">
      <PageHeader title="Security" subtitle="Your second factors: what you use besides your password to sign in." />
      {query.isPending ? (
        <div className="space-y-4" role="status" aria-label="Loading your second factors">
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-40 w-full" />
        </div>
      ) : query.isError ? (
        <ErrorState title="Could not load your second factors" error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <SecurityDetails mine={query.data} />
      )}
    </div>
  );
}

function SecurityDetails({ mine }: { mine: TMyFactors }) {
  // One enrolment at a time: its recovery codes must not be drawn over.
  const [adding, setAdding] = useState<TFactorKind | null>(null);
  const hasFactor = mine.factors.length > 0;
  const done = (what: string) => () => {
    setAdding(null);
    void checkSession();
    toast({ title: `${what} added` });
  };
  return (
    <div className="space-y-6">
      <Standing enrolment={mine.enrolment} />
      <FactorCard
        title="Authenticator apps"
        description="A 6-digit code from your phone, asked for after your password."
        Icon={Smartphone}
        factors={mine.factors.filter((f) => f.kind === 'totp')}
        empty={hasFactor ? 'No authenticator app.' : 'No second factor yet. Anyone with your password can sign in as you.'}
        testId="totp-card"
      >
        {adding === 'totp' ? (
          <TotpEnrolment needsProof={hasFactor} onCancel={() => setAdding(null)} onDone={done('Authenticator app')} />
        ) : (
          <Button type="button" variant={hasFactor ? 'outline' : 'default'} onClick={() => setAdding('totp')} disabled={adding !== null}>
            Add an authenticator app
          </Button>
        )}
      </FactorCard>
      <FactorCard
        title="Passkeys and security keys"
        description="Your device's fingerprint, face or PIN, or a key you plug in or tap, in place of a code."
        Icon={KeyRound}
        factors={mine.factors.filter((f) => f.kind === 'webauthn')}
        empty="No passkey or security key."
        testId="passkey-card"
      >
        {adding === 'webauthn' ? (
          <PasskeyEnrolment needsProof={hasFactor} onCancel={() => setAdding(null)} onDone={done('Passkey')} />
        ) : (
          <Button type="button" variant="outline" onClick={() => setAdding('webauthn')} disabled={adding !== null}>
            Add a passkey or security key
          </Button>
        )}
      </FactorCard>
      {hasFactor && adding === null && <RecoveryCodesCard left={mine.recoveryCodesLeft} />}
      <ApiClientsCard hasFactor={hasFactor} />
    </div>
  );
}

/** One kind of factor: the user's own, and how to add one. */
function FactorCard({
  title,
  description,
  Icon,
  factors,
  empty,
  testId,
  children,
}: {
  title: string;
  description: string;
  Icon: typeof KeyRound;
  factors: TFactor[];
  empty: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Card data-testid={testId}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Icon className="size-5 text-slate-600" aria-hidden="true" />
          {title}
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {factors.length > 0 ? (
          <ul className="divide-y rounded-md border" data-testid="factor-list">
            {factors.map((factor) => (
              <FactorRow key={factor.id} factor={factor} />
            ))}
          </ul>
        ) : (
          <p className="rounded-md border border-dashed p-4 text-sm text-slate-600" data-testid="no-factors">
            {empty}
          </p>
        )}
        {children}
      </CardContent>
    </Card>
  );
}

/** Where she stands with the clinic's policy, in a line. */
function Standing({ enrolment }: { enrolment: TEnrolment }) {
  const { timeZone } = useClinicTimeZone();
  const deadline = enrolment.deadline ? formatClinicTime(enrolment.deadline, timeZone, 'day') : null;
  if (enrolment.status === 'enrolled') {
    return (
      <p className="flex items-center gap-2 text-sm font-medium text-green-800" data-testid="security-standing">
        <ShieldCheck className="size-4 shrink-0" aria-hidden="true" />
        Your account is protected by a second factor.
      </p>
    );
  }
  const text =
    enrolment.status === 'due'
      ? `Your clinic requires a second factor for your role: set one up by ${deadline}.`
      : enrolment.status === 'overdue'
        ? 'Your clinic requires a second factor for your role: set one up to continue.'
        : enrolment.status === 'optional'
          ? 'A second factor is optional for your role, and strongly recommended.'
          : 'Your clinic does not use second factors for your role.';
  return (
    <p className="flex items-center gap-2 text-sm font-medium text-amber-800" data-testid="security-standing">
      <ShieldAlert className="size-4 shrink-0" aria-hidden="true" />
      {text}
    </p>
  );
}

function FactorRow({ factor }: { factor: TFactor }) {
  const { timeZone } = useClinicTimeZone();
  const remove = useRemoveFactor();
  const [confirming, setConfirming] = useState(false);
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 p-3" data-testid="factor-row">
      <div>
        <p className="font-medium text-slate-900">{factor.label}</p>
        <p className="text-xs text-slate-600">
          Added {when(factor.createdAt, timeZone)} · last used {when(factor.lastUsedAt, timeZone)}
        </p>
      </div>
      <Button type="button" variant="outline" size="sm" onClick={() => setConfirming(true)}>
        <Trash2 aria-hidden="true" />
        Remove<span className="sr-only"> {factor.label}</span>
      </Button>
      {confirming && (
        <ProofDialog
          title={`Remove ${factor.label}?`}
          description="It will no longer sign you in. Confirm with a code first."
          confirmLabel="Remove"
          destructive
          pending={remove.isPending}
          onClose={() => setConfirming(false)}
          onProof={(proof, failed) =>
            remove.mutate(
              { factorId: factor.id, proof },
              {
                onSuccess: () => {
                  setConfirming(false);
                  toast({ title: `${factor.label} removed` });
                },
                onError: failed,
              },
            )
          }
        />
      )}
    </li>
  );
}

function RecoveryCodesCard({ left }: { left: number }) {
  const renew = useRenewRecoveryCodes();
  const [asking, setAsking] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRound className="size-5 text-slate-600" aria-hidden="true" />
          Recovery codes
        </CardTitle>
        <CardDescription>For when your phone is lost: each signs you in once.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {codes ? (
          <RecoveryCodesPanel codes={codes} doneLabel="Done" onDone={() => setCodes(null)} />
        ) : (
          <>
            <p className={left <= 3 ? 'text-sm font-medium text-amber-800' : 'text-sm text-slate-700'} data-testid="recovery-codes-left">
              {left} of 10 left{left <= 3 ? ': make new ones before you run out.' : '.'}
            </p>
            <Button type="button" variant="outline" onClick={() => setAsking(true)}>
              Make new codes
            </Button>
          </>
        )}
        {asking && (
          <ProofDialog
            title="Make new recovery codes"
            description="The codes you have now will stop working. Confirm with a code first."
            confirmLabel="Make new codes"
            pending={renew.isPending}
            onClose={() => setAsking(false)}
            onProof={(proof, failed) =>
              renew.mutate(proof, {
                onSuccess: (fresh) => {
                  setAsking(false);
                  setCodes(fresh);
                },
                onError: failed,
              })
            }
          />
        )}
      </CardContent>
    </Card>
  );
}
