import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { BREAK_GLASS, BREAK_GLASS_REASON_LABELS, BREAK_GLASS_REASONS, type TBreakGlassReason } from '#domain/record-scope';
import type { TFactorProof } from '#domain/second-factor';
import { useBreakGlass } from '../../api/patients/break-glass.ts';
import { ZBreakGlassRequest } from '#domain/restricted-records';
import { describeFactorError } from '../second-factor/passkey-errors.ts';
import { FactorProofFields, useFactorProofForm } from '../second-factor/factor-proof-fields.tsx';
import { PasskeyProofButton, useCodeMethods } from '../second-factor/proof-dialog.tsx';
import { useMyFactors } from '../../api/account/my-factors.ts';
import { FormErrorAlert } from '../form-error-alert.tsx';
import { Button } from '../ui/button.tsx';
import { DialogFooter } from '../ui/dialog.tsx';
import { FormDialog } from '../ui/form-dialog.tsx';
import { FormField } from '../ui/form-field.tsx';
import { SELECT_CLASS } from '../ui/select.tsx';
import { LoadingBlock, Spinner } from '../ui/spinner.tsx';
import { Textarea } from '../ui/textarea.tsx';

const DURATIONS = [15, 30, 60, 120, 240] as const;

/**
 * 'Emergency access' to a restricted record (issue 33): a reason, a justification, how long, and
 * a fresh second factor. What it grants, and that admins are told and will review it, is said
 * before anything is sent.
 */
export function EmergencyAccessDialog({ patientId, onClose, onGranted }: { patientId: string; onClose: () => void; onGranted: () => void }) {
  // It asks for a second factor of her own: one who has none is told so first, not after
  // filling it in (issue 50). If her factors cannot be read, the server still says so.
  const mine = useMyFactors();
  const hasNone = mine.data !== undefined && mine.data.factors.length === 0 && mine.data.recoveryCodesLeft === 0;
  return (
    <FormDialog
      onClose={onClose}
      title="Emergency access"
      description="This record is restricted to its care team. Open it only if you need it now for the patient's care: admins are told at once, every access is recorded, and they will review it."
      className="max-w-lg"
      testId="emergency-access-dialog"
    >
      {mine.isPending ? (
        <LoadingBlock />
      ) : hasNone ? (
        <NoSecondFactor onClose={onClose} />
      ) : (
        <EmergencyAccessForm patientId={patientId} onClose={onClose} onGranted={onGranted} />
      )}
    </FormDialog>
  );
}

function NoSecondFactor({ onClose }: { onClose: () => void }) {
  return (
    <div className="space-y-4" data-testid="emergency-access-no-factor">
      <p className="text-sm">
        Emergency access asks you to confirm it is you with a second factor, and you have none yet.{' '}
        <Link href="/account/security" className="font-medium text-blue-800 underline">
          Set up a second factor
        </Link>{' '}
        on the Security page, then come back to this record.
      </p>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Close
        </Button>
      </DialogFooter>
    </div>
  );
}

function EmergencyAccessForm({ patientId, onClose, onGranted }: { patientId: string; onClose: () => void; onGranted: () => void }) {
  const glass = useBreakGlass();
  const codeMethods = useCodeMethods();
  const proofForm = useFactorProofForm();
  const [reason, setReason] = useState<TBreakGlassReason | ''>('');
  const [justification, setJustification] = useState('');
  const [minutes, setMinutes] = useState<number>(BREAK_GLASS.defaultMinutes);
  const [problems, setProblems] = useState<{ reason?: string; justification?: string }>({});
  const error = glass.error ? describeFactorError(glass.error) : null;

  // The request's own rules (domain/restricted-records.ts), checked before the second factor is spent.
  const checked = () => {
    const { shape } = ZBreakGlassRequest;
    const found = {
      reason: shape.reason.safeParse(reason).error?.issues[0]?.message,
      justification: shape.justification.safeParse(justification).error?.issues[0]?.message,
    };
    setProblems(found);
    return !found.reason && !found.justification;
  };
  const send = (proof: TFactorProof) => {
    glass.mutate({ patientId, reason: reason as TBreakGlassReason, justification: justification.trim(), minutes, proof }, { onSuccess: onGranted });
  };
  // Every field says what is wrong at once: the request's own, and the code's.
  const submit = (event: FormEvent<HTMLFormElement>) => {
    const ok = checked();
    void proofForm.onSubmit((proof) => {
      if (ok) send(proof);
    })(event);
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {error && <FormErrorAlert error={error} testId="emergency-access-error" />}
      {!error && proofForm.formError && <FormErrorAlert error={proofForm.formError} testId="emergency-access-error" />}
      {error?.code === 'secondFactor.noneEnrolled' && (
        <p className="text-sm">
          <Link href="/account/security" className="font-medium text-blue-800 underline">
            Set up a second factor
          </Link>{' '}
          first: emergency access asks for one.
        </p>
      )}
      <FormField id="glass-reason" label="Reason" error={problems.reason}>
        {(control) => (
          <select {...control} className={SELECT_CLASS} value={reason} onChange={(event) => setReason(event.target.value as TBreakGlassReason)}>
            <option value="">Choose a reason</option>
            {BREAK_GLASS_REASONS.map((r) => (
              <option key={r} value={r}>
                {BREAK_GLASS_REASON_LABELS[r]}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField id="glass-justification" label="Justification" error={problems.justification}>
        {(control) => (
          <Textarea
            {...control}
            rows={3}
            maxLength={BREAK_GLASS.maxJustification}
            value={justification}
            placeholder="What is happening, and why the care team cannot be reached"
            onChange={(event) => setJustification(event.target.value)}
          />
        )}
      </FormField>
      <FormField id="glass-minutes" label="For">
        {(control) => (
          <select {...control} className={SELECT_CLASS} value={minutes} onChange={(event) => setMinutes(Number(event.target.value))}>
            {DURATIONS.map((m) => (
              <option key={m} value={m}>
                {m < 60 ? `${m} minutes` : `${m / 60} hour${m === 60 ? '' : 's'}`}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <fieldset className="space-y-3 rounded-md border p-3">
        <legend className="px-1 text-sm font-medium">Confirm it is you</legend>
        <PasskeyProofButton
          disabled={glass.isPending}
          ready={checked}
          onProof={send}
          onFailed={(failure) => proofForm.showServerError(describeFactorError(failure))}
        />
        {codeMethods.length > 0 && <FactorProofFields form={proofForm} idPrefix="glass" methods={codeMethods} />}
      </fieldset>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="destructive" disabled={glass.isPending}>
          {glass.isPending && <Spinner className="size-4 text-white" />}
          Open the record
        </Button>
      </DialogFooter>
    </form>
  );
}
