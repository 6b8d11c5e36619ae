import { useState, type ReactNode } from 'react';
import { KeyRound } from 'lucide-react';
import { FormErrorAlert } from '../form-error-alert.tsx';
import { Button } from '../ui/button.tsx';
import { DialogFooter } from '../ui/dialog.tsx';
import { FormDialog } from '../ui/form-dialog.tsx';
import { Spinner } from '../ui/spinner.tsx';
import type { TFactorProof } from '#domain/second-factor';
import { useMyFactors, webauthnProof } from '../../api/account/my-factors.ts';
import { describeFactorError } from './passkey-errors.ts';
import type { TDisplayError } from '../../lib/api-errors.ts';
import { CODE_METHODS, FactorProofFields, useFactorProofForm, type TProofValues } from './factor-proof-fields.tsx';

/** Whether the signed-in user has a passkey or security key to prove herself with. */
export const useHasPasskey = () => useMyFactors().data?.factors.some((factor) => factor.kind === 'webauthn') ?? false;

/** The codes the signed-in user can type: her app's, her recovery codes (both while her factors load). */
export function useCodeMethods(): readonly TProofValues['method'][] {
  const mine = useMyFactors().data;
  if (!mine) return CODE_METHODS;
  return CODE_METHODS.filter((method) => (method === 'totp' ? mine.factors.some((factor) => factor.kind === 'totp') : mine.recoveryCodesLeft > 0));
}

/**
 * 'Use a passkey or security key', for a signed-in user who has one (nothing otherwise): the
 * server's challenge, the browser's own prompt, its answer as the proof. `ready` may refuse to
 * start (the rest of a form is not filled in yet).
 */
export function PasskeyProofButton({
  disabled,
  ready = () => true,
  onProof,
  onFailed,
}: {
  disabled: boolean;
  ready?: () => boolean;
  onProof: (proof: TFactorProof) => void;
  onFailed: (error: unknown) => void;
}) {
  const hasPasskey = useHasPasskey();
  const [prompting, setPrompting] = useState(false);
  if (!hasPasskey) return null;
  const prove = () => {
    if (!ready()) return;
    setPrompting(true);
    webauthnProof()
      .then(onProof)
      .catch(onFailed)
      .finally(() => setPrompting(false));
  };
  return (
    <>
      <Button type="button" variant="outline" className="w-full" onClick={prove} disabled={prompting || disabled}>
        {prompting ? <Spinner className="size-4" /> : <KeyRound aria-hidden="true" />}
        Use a passkey or security key
      </Button>
      <p className="text-center text-xs uppercase tracking-wide text-slate-500">or enter a code</p>
    </>
  );
}

/**
 * "Confirm it is you": a fresh second factor before a sensitive step (resetting someone's
 * factors, removing one's own, new recovery codes). `onProof` runs the step with it; a refused
 * code shows here and the dialog stays open.
 */
export function ProofDialog({
  title,
  description,
  confirmLabel,
  destructive,
  pending,
  onProof,
  onClose,
  testId,
}: {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  destructive?: boolean;
  pending: boolean;
  onProof: (proof: TFactorProof, failed: (error: unknown) => void) => void;
  onClose: () => void;
  testId?: string;
}) {
  const form = useFactorProofForm();
  const failed = (error: unknown) => form.showServerError(describeFactorError(error));
  const submit = form.onSubmit((proof) => onProof(proof, failed));
  const hasPasskey = useHasPasskey();
  const codeMethods = useCodeMethods();
  return (
    <FormDialog onClose={onClose} title={title} description={description} className="max-w-md" testId={testId}>
      <form onSubmit={submit} noValidate className="space-y-4">
        {form.formError && <FormErrorAlert error={form.formError} testId="proof-error" />}
        <PasskeyProofButton
          disabled={pending}
          onProof={(proof) => {
            form.setFormError(null);
            onProof(proof, failed);
          }}
          onFailed={failed}
        />
        {codeMethods.length > 0 && <FactorProofFields form={form} idPrefix="proof" autoFocus={!hasPasskey} methods={codeMethods} />}
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant={destructive ? 'destructive' : 'default'} disabled={pending}>
            {pending && <Spinner className="size-4 text-white" />}
            {confirmLabel}
          </Button>
        </DialogFooter>
      </form>
    </FormDialog>
  );
}

/**
 * The button that starts adding a factor: at once for someone with none, after 'Confirm it is
 * you' for someone who has one (a session taken over must not add the thief's own). What failed
 * shows above it, or in the dialog while that is open.
 */
export function ProofFirstButton({
  needsProof,
  pending,
  error,
  onStart,
  onCancel,
  children,
}: {
  needsProof: boolean;
  pending: boolean;
  error: TDisplayError | null;
  onStart: (proof?: TFactorProof, failed?: (error: unknown) => void) => void;
  onCancel?: (() => void) | undefined;
  children: ReactNode;
}) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      {error && !asking && <FormErrorAlert error={error} testId="factor-start-error" />}
      <div className="flex flex-wrap gap-2">
        <Button type="button" onClick={() => (needsProof ? setAsking(true) : onStart())} disabled={pending}>
          {children}
        </Button>
        {onCancel && (
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
      {asking && (
        <ProofDialog
          title="Confirm it is you"
          description="Confirm with a factor you already have before adding another."
          confirmLabel="Continue"
          pending={pending}
          onProof={(proof, failed) => onStart(proof, failed)}
          onClose={() => setAsking(false)}
        />
      )}
    </>
  );
}
