import { ROLE_LABELS, ROLES } from '#domain/roles';
import { GRACE_DAYS_MAX, ZSecondFactorPolicy, type TSecondFactorPolicy, type TStoredSecondFactorPolicy } from '#domain/second-factor';
import { useSecondFactorPolicy, useUpdateSecondFactorPolicy } from '../../api/settings/second-factor-policy.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { LoadingBlock, Spinner } from '../../components/ui/spinner.tsx';
import { toast } from '../../lib/toast.ts';
import { cn } from '../../lib/utils.ts';
import { useAppForm } from '../../lib/use-app-form.ts';
import { formatClinicTime } from '#domain/clinic-time';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';

const MODE_LABELS = { off: 'Off', optional: 'Optional', required: 'Required' } as const;
const FIELDS = ROLES.flatMap((role) => [`${role}.mode`, `${role}.graceDays`] as const);

const valuesOf = (stored: TStoredSecondFactorPolicy): TSecondFactorPolicy =>
  Object.fromEntries(ROLES.map((role) => [role, { mode: stored[role].mode, graceDays: stored[role].graceDays }])) as TSecondFactorPolicy;

/**
 * Admin Panel → Settings: the second-factor policy per role (issue 33). Required gives the
 * role's users the grace to enrol, counted from when it became required (or from the account,
 * when newer); past it they can do nothing but enrol.
 */
export function SecondFactorPolicyCard() {
  const policy = useSecondFactorPolicy();
  return (
    <Card data-testid="second-factor-policy">
      <CardHeader>
        <CardTitle>Second factor</CardTitle>
        <CardDescription>
          Who must use an authenticator app besides a password. Required: users of the role have the grace to set one up, then can do nothing else until they
          do.
        </CardDescription>
      </CardHeader>
      {policy.isPending ? (
        <CardContent>
          <LoadingBlock />
        </CardContent>
      ) : policy.isError ? (
        <CardContent>
          <ErrorState title="Could not load the second-factor policy" error={policy.error} onRetry={() => void policy.refetch()} />
        </CardContent>
      ) : (
        <PolicyForm stored={policy.data} />
      )}
    </Card>
  );
}

function PolicyForm({ stored }: { stored: TStoredSecondFactorPolicy }) {
  const { timeZone } = useClinicTimeZone();
  const save = useUpdateSecondFactorPolicy();
  const form = useAppForm<TSecondFactorPolicy>({ schema: ZSecondFactorPolicy, defaultValues: valuesOf(stored), fields: FIELDS });
  const submit = form.onSubmit((values) =>
    save.mutate(values, {
      onSuccess: (saved) => {
        form.reset(valuesOf(saved));
        toast({ title: 'Second-factor policy saved', variant: 'success' });
      },
      onError: (error) => void form.failed(error, 'Failed to save the second-factor policy'),
    }),
  );
  return (
    <form onSubmit={submit} noValidate aria-label="Second-factor policy">
      <CardContent>
        <table className="w-full max-w-xl text-sm">
          <thead>
            <tr className="text-left text-xs uppercase tracking-wide text-slate-600">
              <th scope="col" className="pb-2 font-semibold">
                Role
              </th>
              <th scope="col" className="pb-2 font-semibold">
                Policy
              </th>
              <th scope="col" className="pb-2 font-semibold">
                Days to enrol
              </th>
            </tr>
          </thead>
          <tbody>
            {ROLES.map((role) => {
              const errors = form.formState.errors[role];
              const since = stored[role].requiredSince;
              return (
                <tr key={role} className="border-t align-top" data-testid={`policy-${role}`}>
                  <th scope="row" className="py-2 pr-2 text-left font-medium text-slate-900">
                    {ROLE_LABELS[role]}
                    {stored[role].mode === 'required' && since && (
                      <span className="block text-xs font-normal text-slate-600">required since {formatClinicTime(since, timeZone, 'day')}</span>
                    )}
                  </th>
                  <td className="py-2 pr-2">
                    <select
                      aria-label={`Policy for ${ROLE_LABELS[role]}`}
                      className={cn(SELECT_CLASS, 'min-w-[7.5rem] pr-2')}
                      {...form.register(`${role}.mode`)}
                    >
                      {(['off', 'optional', 'required'] as const).map((mode) => (
                        <option key={mode} value={mode}>
                          {MODE_LABELS[mode]}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td className="py-2">
                    <Input
                      type="number"
                      inputMode="numeric"
                      min={0}
                      max={GRACE_DAYS_MAX}
                      step={1}
                      aria-label={`Days to enrol for ${ROLE_LABELS[role]}`}
                      aria-invalid={errors?.graceDays ? true : undefined}
                      className="w-20"
                      {...form.register(`${role}.graceDays`, { valueAsNumber: true })}
                    />
                    {errors?.graceDays && <p className="mt-1 text-xs text-red-700">{errors.graceDays.message}</p>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </CardContent>
      <CardFooter>
        <Button type="submit" disabled={save.isPending} data-testid="policy-save">
          {save.isPending && <Spinner className="size-4 text-white" />}
          {save.isPending ? 'Saving...' : 'Save policy'}
        </Button>
      </CardFooter>
    </form>
  );
}
