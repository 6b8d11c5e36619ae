import { useState } from 'react';
import { KeyRound } from 'lucide-react';
import type { TFactorProof } from '#domain/second-factor';
import { useAddWebauthn } from '../../api/account/my-factors.ts';
import { FormErrorAlert } from '../form-error-alert.tsx';
import { Button } from '../ui/button.tsx';
import { Input } from '../ui/input.tsx';
import { Label } from '../ui/label.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { describeFactorError } from './passkey-errors.ts';
import { ProofDialog } from './proof-dialog.tsx';
import { RecoveryCodesPanel } from './recovery-codes-panel.tsx';

/**
 * Adding a passkey (this device's fingerprint, face or PIN) or a security key: a name, (a fresh
 * factor she has, if any), the browser's own prompt, then the recovery codes the first time.
 */
export function PasskeyEnrolment({ needsProof, onDone, onCancel }: { needsProof: boolean; onDone: () => void; onCancel?: () => void }) {
  const add = useAddWebauthn();
  const [label, setLabel] = useState('');
  const [asking, setAsking] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);

  const run = (proof?: TFactorProof, failed?: (error: unknown) => void) =>
    add.mutate(
      { proof, label: label.trim() || undefined },
      {
        onSuccess: (answer) => {
          setAsking(false);
          if (answer.recoveryCodes) setCodes(answer.recoveryCodes);
          else onDone();
        },
        onError: (error) => failed?.(error),
      },
    );

  if (codes) return <RecoveryCodesPanel codes={codes} onDone={onDone} />;
  return (
    <div className="space-y-3" data-testid="passkey-enrolment">
      {add.isError && !asking && <FormErrorAlert error={describeFactorError(add.error)} testId="passkey-error" />}
      <div className="max-w-xs space-y-2">
        <Label htmlFor="passkey-label">Name (optional)</Label>
        <Input id="passkey-label" maxLength={60} placeholder="Work laptop" value={label} onChange={(event) => setLabel(event.target.value)} />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="button" onClick={() => (needsProof ? setAsking(true) : run())} disabled={add.isPending}>
          {add.isPending ? <Spinner className="size-4 text-white" /> : <KeyRound aria-hidden="true" />}
          Add a passkey or security key
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
          pending={add.isPending}
          onProof={(proof, failed) => run(proof, failed)}
          onClose={() => setAsking(false)}
        />
      )}
    </div>
  );
}
