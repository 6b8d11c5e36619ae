import { useRef, useState } from 'react';
import { FileCheck, FileDown, ShieldCheck } from 'lucide-react';
import type { TAuditChainCheck, TSavedHeadCheck } from '#domain/audit';
import { AUDIT_HEAD_HREF, NotASavedHead, useCheckSavedHead } from '../../api/audit/audit-head.ts';
import { useVerifyAuditChain } from '../../api/audit/verify-audit-chain.ts';
import { Button } from '../../components/ui/button.tsx';
import { buttonClass } from '../../components/ui/button-variants.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { describeApiError } from '../../lib/api-errors.ts';
import { formatClinicTime } from '#domain/clinic-time';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';

/**
 * The chain's checks: every link recomputed on request; the head downloaded, signed by the
 * server, to keep where the database's users cannot write; and a head saved earlier looked for in
 * the chain, which is what finds rows cut from the end or a chain rewritten end to end.
 */
export function AuditChainCheck() {
  const verify = useVerifyAuditChain();
  const savedHead = useCheckSavedHead();
  // Whichever check was asked for last is the one shown.
  const [shown, setShown] = useState<'verify' | 'head'>('verify');
  const current = shown === 'verify' ? verify : savedHead;
  const fileInput = useRef<HTMLInputElement>(null);
  const pending = verify.isPending || savedHead.isPending;

  const checkFile = (file: File | undefined) => {
    if (!file) return;
    setShown('head');
    savedHead.mutate(file);
  };

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <Button
          variant="outline"
          size="sm"
          onClick={() => {
            setShown('verify');
            verify.mutate();
          }}
          disabled={pending}
        >
          {verify.isPending ? <Spinner className="size-4" /> : <ShieldCheck aria-hidden="true" />}
          Verify chain
        </Button>
        <a href={AUDIT_HEAD_HREF} download className={buttonClass({ variant: 'outline', size: 'sm' })} data-testid="audit-head-download">
          <FileDown aria-hidden="true" />
          Download signed head
        </a>
        <Button variant="outline" size="sm" onClick={() => fileInput.current?.click()} disabled={pending}>
          {savedHead.isPending ? <Spinner className="size-4" /> : <FileCheck aria-hidden="true" />}
          Check a saved head
        </Button>
        <input
          ref={fileInput}
          type="file"
          accept="application/json,.json"
          className="sr-only"
          tabIndex={-1}
          aria-label="Saved audit head file"
          data-testid="audit-head-file"
          onChange={(event) => {
            checkFile(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
      </div>
      <div aria-live="polite" data-testid="audit-chain-result" className="text-sm">
        {current.isPending && <span className="text-slate-600">Checking every link…</span>}
        {current.isError && (
          <span role="alert" className="font-medium text-red-700">
            {current.error instanceof NotASavedHead ? current.error.message : `Could not check the chain: ${describeApiError(current.error).message}`}
          </span>
        )}
        {current.data && !current.isPending && (
          <>
            <ChainResult check={current.data} />
            <UnsealedTail tail={current.data.unsealed} />
            {shown === 'head' && savedHead.data && <SavedHeadResult saved={savedHead.data.savedHead} />}
          </>
        )}
      </div>
    </div>
  );
}

function ChainResult({ check }: { check: TAuditChainCheck }) {
  if (check.firstBroken) {
    return (
      <span role="alert" className="font-semibold text-red-700">
        Chain broken at row {check.firstBroken.seq ?? '(unnumbered)'}:{' '}
        {check.firstBroken.reason === 'edited' ? 'the row was changed after it was written' : 'a row before it is missing'}
      </span>
    );
  }
  return (
    <span className="font-medium text-green-800">
      Chain intact: {check.rows} {check.rows === 1 ? 'row' : 'rows'}
      {check.head && (
        <span className="ml-1 font-mono text-xs font-normal text-slate-600" title={check.head.hash}>
          (head {check.head.seq}: {check.head.hash.slice(0, 12)}…)
        </span>
      )}
    </span>
  );
}

/** A tail older than this means the sealer is not keeping up (or not running): worth an admin's look. */
const TAIL_WARNING_MS = 60_000;

/** Rows written but not yet linked: normally a handful, under a second old. */
function UnsealedTail({ tail }: { tail: TAuditChainCheck['unsealed'] }) {
  if (tail.rows === 0) return null;
  const seconds = Math.max(0, Math.round((tail.oldestAgeMs ?? 0) / 1000));
  const late = (tail.oldestAgeMs ?? 0) > TAIL_WARNING_MS;
  return (
    <span data-testid="audit-chain-unsealed" className={late ? 'ml-2 font-medium text-amber-800' : 'ml-2 text-slate-600'}>
      · {tail.rows} newer {tail.rows === 1 ? 'row' : 'rows'} waiting to be sealed (oldest {seconds < 1 ? 'under a second' : `${seconds} s`})
      {late && ': the sealer is behind; check that the server is running'}
    </span>
  );
}

/** What became of the saved head, in words an admin can act on. */
function SavedHeadResult({ saved }: { saved: TSavedHeadCheck }) {
  const { timeZone } = useClinicTimeZone();
  const signed = formatClinicTime(saved.signedAt, timeZone, 'second');
  const found = saved.state === 'in chain';
  const text = {
    'in chain': `The saved head (row ${saved.seq}, signed ${signed}) is still in the chain: nothing up to it was cut or rewritten.`,
    cut: `Rows were cut from the end: row ${saved.seq} of the head saved ${signed} is no longer in the trail.`,
    rewritten: `The chain was rewritten: row ${saved.seq} no longer has the hash signed ${signed}.`,
    missing: `Row ${saved.seq} of the head saved ${signed} is missing from the trail.`,
    'not signed here': "This file was not signed by this server's key (it was altered, or comes from another server), so it proves nothing.",
  }[saved.state];
  return (
    <p
      role={found ? undefined : 'alert'}
      data-testid="audit-saved-head"
      className={found ? 'mt-1 text-green-800' : saved.state === 'not signed here' ? 'mt-1 font-medium text-amber-800' : 'mt-1 font-semibold text-red-700'}
    >
      {text}
    </p>
  );
}
