import { useMemo } from 'react';
import type { TCurrentUser } from '#domain/auth';
import { formatClinicTime } from '#domain/clinic-time';
import {
  CLINIC_NAME_MAX,
  CRITICAL_ESCALATION_MINUTES_RANGE,
  SESSION_IDLE_MINUTES_MAX,
  SESSION_IDLE_MINUTES_MIN,
  timeZoneNames,
  type TClinicSettings,
} from '#domain/settings';
import { UNIT_SYSTEM_LABELS, UNIT_SYSTEMS } from '#domain/units';
import { useClinicSettings } from '../../api/settings/clinic-settings.ts';
import { useUpdateClinicSettings } from '../../api/settings/update-clinic-settings.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { FormField, type TFieldControlProps } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { LoadingBlock, Spinner } from '../../components/ui/spinner.tsx';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';
import { BackupsCard } from './backups-card.tsx';
import { SecondFactorPolicyCard } from './second-factor-policy.tsx';
import {
  SETTINGS_FIELDS,
  SETTINGS_SERVER_PATHS,
  settingsFormValues,
  ZSettingsForm,
  type TSettingsFormOutput,
  type TSettingsFormValues,
} from './settings-form-values.ts';
import { ScheduleSettings } from './settings-schedule.tsx';
const ZONES_LIST_ID = 'settings-time-zones';

/**
 * The Admin Panel's Settings tab (issue 20): the clinic's name, time zone and idle timeout, who
 * may join patients' chat rooms, and how long a critical lab result may wait unacknowledged
 * before the administrators are told (issue 30); the schedule Reports measure against: opening
 * hours, rooms and late cancellations (issue 34); the units of vital signs (issue 51); and the
 * second-factor policy (issue 33).
 */
export function SettingsTab(_props: { user: TCurrentUser }) {
  const settings = useClinicSettings();
  if (settings.isPending) return <LoadingBlock />;
  if (settings.isError) return <ErrorState title="Could not load the clinic settings" error={settings.error} onRetry={() => void settings.refetch()} />;
  return (
    <div className="space-y-6">
      <SettingsForm settings={settings.data} />
      <SecondFactorPolicyCard />
      <BackupsCard />
    </div>
  );
}

/** A hint under a control, read with it (and with its error, when there is one). */
const withHint = (control: TFieldControlProps, hintId: string): TFieldControlProps => ({
  ...control,
  'aria-describedby': [control['aria-describedby'], hintId].filter(Boolean).join(' '),
});

function SettingsForm({ settings }: { settings: TClinicSettings }) {
  const save = useUpdateClinicSettings();
  // Every setting is sent on each save: the PUT replaces them (what is left unsaved takes its default).
  const form = useAppForm<TSettingsFormValues, TSettingsFormOutput>({
    schema: ZSettingsForm,
    defaultValues: settingsFormValues(settings),
    fields: SETTINGS_FIELDS,
    serverPaths: SETTINGS_SERVER_PATHS,
  });
  const {
    register,
    onSubmit: submitWith,
    reset,
    formState: { errors },
  } = form;
  // Field errors of fields this form does not have; the toast says the rest.
  const unplaced = form.formError?.fieldErrors ?? [];
  // The browser's list, with the zone in force first if the browser does not list it.
  const zones = useMemo(() => {
    const listed = timeZoneNames();
    return listed.includes(settings.timeZone) ? listed : [settings.timeZone, ...listed];
  }, [settings.timeZone]);
  const { defaults } = settings;

  const onSubmit = submitWith((values) => {
    save.mutate(values, {
      onSuccess: (saved) => {
        reset(settingsFormValues(saved));
        toast({ title: 'Settings saved', description: 'Every user sees them from their next request.', variant: 'success' });
      },
      onError: (error) => void form.failed(error, 'Failed to save the settings'),
    });
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Clinic settings</CardTitle>
        <CardDescription>Apply to every user at once, without a restart. Left unsaved, each takes its default from the server's environment.</CardDescription>
      </CardHeader>
      <form onSubmit={onSubmit} noValidate autoComplete="off" aria-label="Clinic settings">
        <CardContent className="grid max-w-xl gap-5">
          <FormField id="settings-clinic-name" label="Clinic name" required error={errors.clinicName?.message} testId="clinicName">
            {(control) => (
              <>
                <Input {...withHint(control, 'settings-clinic-name-hint')} maxLength={CLINIC_NAME_MAX} required {...register('clinicName')} />
                <p id="settings-clinic-name-hint" className="text-xs text-slate-600">
                  Shown in the top bar. Default: {defaults.clinicName}
                </p>
              </>
            )}
          </FormField>

          <FormField id="settings-time-zone" label="Time zone" required error={errors.timeZone?.message} testId="timeZone">
            {(control) => (
              <>
                <Input {...withHint(control, 'settings-time-zone-hint')} list={ZONES_LIST_ID} spellCheck={false} required {...register('timeZone')} />
                <datalist id={ZONES_LIST_ID}>
                  {zones.map((zone) => (
                    <option key={zone} value={zone} />
                  ))}
                </datalist>
                <p id="settings-time-zone-hint" className="text-xs text-slate-600">
                  An IANA name, such as America/New_York: appointment times and "today" are the clinic's. Default: {defaults.timeZone}
                </p>
              </>
            )}
          </FormField>

          <FormField id="settings-idle" label="Idle timeout (minutes)" required error={errors.sessionIdleMinutes?.message} testId="sessionIdleMinutes">
            {(control) => (
              <>
                <Input
                  {...withHint(control, 'settings-idle-hint')}
                  type="number"
                  inputMode="numeric"
                  min={SESSION_IDLE_MINUTES_MIN}
                  max={SESSION_IDLE_MINUTES_MAX}
                  step={1}
                  required
                  className="max-w-40"
                  {...register('sessionIdleMinutes', { valueAsNumber: true })}
                />
                <p id="settings-idle-hint" className="text-xs text-slate-600">
                  {SESSION_IDLE_MINUTES_MIN} to {SESSION_IDLE_MINUTES_MAX}. A session without a request for this long ends, including sessions already open.
                  Default: {defaults.sessionIdleMinutes}
                </p>
              </>
            )}
          </FormField>

          <FormField
            id="settings-escalation"
            label="Critical lab result escalation (minutes)"
            required
            error={errors.criticalEscalationMinutes?.message}
            testId="criticalEscalationMinutes"
          >
            {(control) => (
              <>
                <Input
                  {...withHint(control, 'settings-escalation-hint')}
                  type="number"
                  inputMode="numeric"
                  min={CRITICAL_ESCALATION_MINUTES_RANGE.min}
                  max={CRITICAL_ESCALATION_MINUTES_RANGE.max}
                  step={1}
                  required
                  className="max-w-40"
                  {...register('criticalEscalationMinutes', { valueAsNumber: true })}
                />
                <p id="settings-escalation-hint" className="text-xs text-slate-600">
                  {CRITICAL_ESCALATION_MINUTES_RANGE.min} to {CRITICAL_ESCALATION_MINUTES_RANGE.max}. A critical lab result its ordering provider has not
                  acknowledged for this long is sent to every administrator, once. Default: {defaults.criticalEscalationMinutes}
                </p>
              </>
            )}
          </FormField>

          <fieldset className="grid gap-1.5">
            <legend className="text-sm font-medium">Team chat privacy</legend>
            <label className="flex items-start gap-2 text-sm" htmlFor="settings-non-clinical">
              <input
                id="settings-non-clinical"
                type="checkbox"
                aria-describedby="settings-non-clinical-hint"
                className="mt-0.5 size-4 shrink-0 accent-blue-700"
                data-testid="nonClinicalInPatientRooms"
                {...register('nonClinicalInPatientRooms')}
              />
              <span>Allow staff who cannot open patient records (suppliers) in patients' chat rooms</span>
            </label>
            <p id="settings-non-clinical-hint" className="pl-6 text-xs text-slate-600">
              Off by default: every room is about one patient, and its members see her name, the messages and the files. Turning it off removes such staff from
              every patient's room at once.
            </p>
          </fieldset>

          <fieldset className="grid gap-1.5" data-testid="unitSystem">
            <legend className="text-sm font-medium">Vital sign units</legend>
            {UNIT_SYSTEMS.map((system) => (
              <label key={system} className="flex items-center gap-2 text-sm" htmlFor={`settings-units-${system}`}>
                <input
                  id={`settings-units-${system}`}
                  type="radio"
                  value={system}
                  aria-describedby="settings-units-hint"
                  className="size-4 shrink-0 accent-blue-700"
                  {...register('unitSystem')}
                />
                <span>{UNIT_SYSTEM_LABELS[system]}</span>
              </label>
            ))}
            <p id="settings-units-hint" className="text-xs text-slate-600">
              What the chart enters and shows temperature, weight and height in. Values are stored in metric units either way, so changing this converts
              nothing. Default: {UNIT_SYSTEM_LABELS[defaults.unitSystem]}
            </p>
          </fieldset>

          <ScheduleSettings form={form} defaults={defaults} />

          {unplaced.length > 0 && (
            <ul role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
              {unplaced.map((e) => (
                <li key={`${e.path}${e.message}`}>{e.message}</li>
              ))}
            </ul>
          )}
        </CardContent>
        <CardFooter className="flex-col items-start gap-3 sm:flex-row sm:items-center">
          <Button type="submit" disabled={save.isPending} data-testid="settings-save">
            {save.isPending && <Spinner className="size-4 text-white" />}
            {save.isPending ? 'Saving...' : 'Save settings'}
          </Button>
          {settings.updatedAt && <p className="text-xs text-slate-600">Last saved {formatClinicTime(settings.updatedAt, settings.timeZone)}</p>}
        </CardFooter>
      </form>
    </Card>
  );
}
