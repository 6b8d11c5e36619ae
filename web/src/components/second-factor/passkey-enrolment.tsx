import { useState } from 'react';
import { KeyRound } from 'lucide-react';
import type { TFactorProof } from '#domain/second-factor';
import { useAddWebauthn } from '../../api/account/my-factors.ts';
import { Input } from '../ui/input.tsx';
import { Label } from '../ui/label.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { describeFactorError } from './passkey-errors.ts';
import { ProofFirstButton } from './proof-dialog.tsx';
import { RecoveryCodesPanel } from './recovery-codes-panel.tsx';

/**
 * Adding a passkey (this device's fingerprint, face or PIN) or a security key: a name, (a fresh
 * factor she has, if any), the browser's own prompt, then the recovery codes the first time.
 */
export function PasskeyEnrolment({ needsProof, onDone, onCancel }: { needsProof: boolean; onDone: () => void; onCancel?: () => void }) {
  const add = useAddWebauthn();
  const [label, setLabel] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);

  const run = (proof?: TFactorProof, failed?: (error: unknown) => void) =>
    add.mutate(
      { proof, label: label.trim() || undefined },
      { onSuccess: (answer) => (answer.recoveryCodes ? setCodes(answer.recoveryCodes) : onDone()), onError: (error) => failed?.(error) },
    );

  if (codes) return <RecoveryCodesPanel codes={codes} onDone={onDone} />;
  return (
    <div className="space-y-3" data-testid="passkey-enrolment">
      <div className="max-w-xs space-y-2">
        <Label htmlFor="passkey-label">Name (optional)</Label>
        <Input id="passkey-label" maxLength={60} placeholder="Work laptop" value={label} onChange={(event) => setLabel(event.target.value)} />
      </div>
      <ProofFirstButton
        needsProof={needsProof}
        pending={add.isPending}
        error={add.error ? describeFactorError(add.error) : null}
        onStart={run}
        onCancel={onCancel}
      >
        {add.isPending ? <Spinner className="size-4 text-white" /> : <KeyRound aria-hidden="true" />}
        Add a passkey or security key
      </ProofFirstButton>
    </div>
  );
}
