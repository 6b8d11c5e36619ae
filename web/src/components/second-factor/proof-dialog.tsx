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
import { FactorProofFields, useFactorProofForm } from './factor-proof-fields.tsx';

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
  // A passkey is offered to someone who has one; its prompt is the browser's own.
  const hasPasskey = useMyFactors().data?.factors.some((factor) => factor.kind === 'webauthn') ?? false;
  const [prompting, setPrompting] = useState(false);
  const proveWithPasskey = () => {
    setPrompting(true);
    form.setFormError(null);
    webauthnProof()
      .then((proof) => onProof(proof, failed))
      .catch(failed)
      .finally(() => setPrompting(false));
  };
  return (
    <FormDialog onClose={onClose} title={title} description={description} className="max-w-md" testId={testId}>
      <form onSubmit={submit} noValidate className="space-y-4">
        {form.formError && <FormErrorAlert error={form.formError} testId="proof-error" />}
        {hasPasskey && (
          <>
            <Button type="button" variant="outline" className="w-full" onClick={proveWithPasskey} disabled={prompting || pending}>
              {prompting ? <Spinner className="size-4" /> : <KeyRound aria-hidden="true" />}
              Use a passkey or security key
            </Button>
            <p className="text-center text-xs uppercase tracking-wide text-slate-500">or enter a code</p>
          </>
        )}
        <FactorProofFields form={form} idPrefix="proof" autoFocus={!hasPasskey} />
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
