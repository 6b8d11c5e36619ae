import { useState } from 'react';
import { z } from 'zod';
import { ZConfirmTotp, type TConfirmTotp, type TFactorProof, type TTotpSetup } from '#domain/second-factor';
import { useBeginTotp, useConfirmTotp } from '../../api/account/my-factors.ts';
import { describeApiError } from '../../lib/api-errors.ts';
import { useAppForm } from '../../lib/use-app-form.ts';
import { FormErrorAlert } from '../form-error-alert.tsx';
import { Button } from '../ui/button.tsx';
import { FormField } from '../ui/form-field.tsx';
import { Input } from '../ui/input.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { ProofFirstButton } from './proof-dialog.tsx';
import { RecoveryCodesPanel } from './recovery-codes-panel.tsx';

/** The key as an app asks for it by hand: groups of four. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)!.join(' ');

/**
 * Adding an authenticator app: (a fresh code from a factor she has, if any) → the QR code and
 * the key → the app's first code → the recovery codes, the first time. `onDone` runs once all
 * of it is over (the codes saved), not before, so nothing draws over codes not yet kept.
 */
export function TotpEnrolment({ needsProof, onDone, onCancel }: { needsProof: boolean; onDone: () => void; onCancel?: () => void }) {
  const begin = useBeginTotp();
  const [setup, setSetup] = useState<TTotpSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  const start = (proof?: TFactorProof, failed?: (error: unknown) => void) => begin.mutate(proof, { onSuccess: setSetup, onError: (error) => failed?.(error) });

  if (codes) return <RecoveryCodesPanel codes={codes} onDone={onDone} />;
  if (setup) return <ScanAndConfirm setup={setup} onConfirmed={(recoveryCodes) => (recoveryCodes ? setCodes(recoveryCodes) : onDone())} onCancel={onCancel} />;
  return (
    <div className="space-y-3">
      <ProofFirstButton
        needsProof={needsProof}
        pending={begin.isPending}
        error={begin.error ? describeApiError(begin.error) : null}
        onStart={start}
        onCancel={onCancel}
      >
        {begin.isPending && <Spinner className="size-4 text-white" />}
        Set up an authenticator app
      </ProofFirstButton>
    </div>
  );
}

const CONFIRM_FIELDS = ['code', 'label'] as const;
type TConfirmValues = z.input<typeof ZConfirmTotp>;

function ScanAndConfirm({ setup, onConfirmed, onCancel }: { setup: TTotpSetup; onConfirmed: (codes: string[] | null) => void; onCancel?: () => void }) {
  const confirm = useConfirmTotp();
  const form = useAppForm<TConfirmValues, TConfirmTotp>({ schema: ZConfirmTotp, defaultValues: { code: '', label: '' }, fields: CONFIRM_FIELDS });
  const submit = form.onSubmit((values) =>
    confirm.mutate(
      { factorId: setup.factorId, ...values },
      { onSuccess: (answer) => onConfirmed(answer.recoveryCodes), onError: (error) => form.showServerError(describeApiError(error)) },
    ),
  );
  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Add an authenticator app" data-testid="totp-enrolment">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
        <li>Open your authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…) and add an account.</li>
        <li>Scan the QR code, or type the key below.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <div className="flex flex-col items-start gap-4 sm:flex-row">
        <img
          src={`data:image/svg+xml;utf8,${encodeURIComponent(setup.qrSvg)}`}
          alt="QR code to scan with your authenticator app"
          className="size-44 shrink-0 rounded-md border bg-white p-2"
          data-testid="totp-qr"
        />
        <div className="min-w-0 space-y-1">
          <p className="text-sm font-medium text-slate-900">Key</p>
          <p className="break-all font-mono text-sm text-slate-800" data-testid="totp-secret">
            {grouped(setup.secret)}
          </p>
          <p className="text-xs text-slate-600">Time-based, 6 digits, every 30 seconds.</p>
        </div>
      </div>
      {form.formError && <FormErrorAlert error={form.formError} testId="totp-confirm-error" />}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="totp-code" label="6-digit code" error={form.formState.errors.code?.message}>
          {(control) => (
            <Input
              {...control}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              className="font-mono tracking-widest"
              {...form.register('code')}
            />
          )}
        </FormField>
        <FormField id="totp-label" label="Name (optional)" error={form.formState.errors.label?.message}>
          {(control) => <Input {...control} maxLength={60} placeholder="Work phone" {...form.register('label')} />}
        </FormField>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={confirm.isPending}>
          {confirm.isPending && <Spinner className="size-4 text-white" />}
          Confirm
        </Button>
        {onCancel && (
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
