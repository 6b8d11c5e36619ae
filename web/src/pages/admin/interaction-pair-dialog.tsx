import { useState } from 'react';
import type { Path } from 'react-hook-form';
import { z, type ZodType } from 'zod';
import {
  INTERACTION_PAIR_LIMITS,
  INTERACTION_SEVERITIES,
  SEVERITY_WORDS,
  ZNewInteractionPair,
  type TInteractionPair,
  type TNewInteractionPair,
} from '#domain/interaction-pairs';
import { useSaveInteractionPair } from '../../api/formulary/interaction-pairs.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { ActiveCheckbox, FormDialog, FormDialogFooter } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { StaleBanner } from '../../components/ui/stale-banner.tsx';
import { apiErrorCode, describeApiError } from '../../lib/api-errors.ts';
import type { TServerPaths } from '../../lib/form-errors.ts';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';

/** The pair as the form holds it: each side's ingredients typed as one line, separated by commas. */
interface TValues {
  nameA: string;
  ingredientsA: string;
  nameB: string;
  ingredientsB: string;
  severity: string;
  effect: string;
  isActive: boolean;
}
const FIELDS: readonly Path<TValues>[] = ['nameA', 'ingredientsA', 'nameB', 'ingredientsB', 'severity', 'effect', 'isActive'];
/** A refused ingredient ('ingredientsA.1': one the formulary lacks) shows under the line that holds them all. */
const SERVER_PATHS: TServerPaths<TValues> = Object.fromEntries(
  (['ingredientsA', 'ingredientsB'] as const).flatMap((side) => Array.from({ length: INTERACTION_PAIR_LIMITS.ingredients }, (_, i) => [`${side}.${i}`, side])),
);

/** A side's ingredients from its one line: split at commas, blanks dropped. */
const ingredientsOf = (line: string) =>
  line
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

const ZTyped = z.object({
  nameA: z.string(),
  ingredientsA: z.string().transform(ingredientsOf),
  nameB: z.string(),
  ingredientsB: z.string().transform(ingredientsOf),
  severity: z.string(),
  effect: z.string(),
  isActive: z.boolean(),
});
/** The typed fields made into the request's, then checked by the server's own schema. */
const ZForm = ZTyped.pipe(ZNewInteractionPair as unknown as ZodType<TNewInteractionPair, z.output<typeof ZTyped>>) as unknown as ZodType<
  TNewInteractionPair,
  TValues
>;

const valuesOf = (pair: TInteractionPair | null): TValues => ({
  nameA: pair?.nameA ?? '',
  ingredientsA: pair?.ingredientsA.join(', ') ?? '',
  nameB: pair?.nameB ?? '',
  ingredientsB: pair?.ingredientsB.join(', ') ?? '',
  severity: pair?.severity ?? '',
  effect: pair?.effect ?? '',
  isActive: pair?.isActive ?? true,
});

/**
 * 'Add Pair' and 'Edit' (formulary.manage): two named groups of the formulary's ingredients, how
 * loud the alert is, and the line a prescriber reads. Every check of a prescription weighs it from
 * then on; unticking 'In force' retires it.
 */
export function InteractionPairDialog({ pair, onClose }: { pair: TInteractionPair | null; onClose: () => void }) {
  const save = useSaveInteractionPair();
  const [stale, setStale] = useState<string | null>(null);
  const form = useAppForm<TValues, TNewInteractionPair>({ schema: ZForm, defaultValues: valuesOf(pair), fields: FIELDS, serverPaths: SERVER_PATHS });
  const {
    register,
    formState: { errors },
  } = form;
  const saving = save.isPending;

  const onSubmit = form.onSubmit((body) =>
    save.mutate(pair ? { id: pair.id, body: { ...body, updatedAt: pair.updatedAt } } : { id: null, body }, {
      onSuccess: (saved) => {
        toast({ title: pair ? 'Interaction pair saved' : 'Interaction pair added', description: `${saved.nameA} with ${saved.nameB}`, variant: 'success' });
        onClose();
      },
      onError: (error) => {
        const described = form.failed(error, pair ? 'Failed to save the interaction pair' : 'Failed to add the interaction pair', { withReason: true });
        if (described && apiErrorCode(error) === 'record.stale') {
          setStale(describeApiError(error).message);
          form.setFormError(null);
        }
      },
    }),
  );

  const side = (key: 'A' | 'B') => (
    <fieldset className="grid gap-3 rounded-md border p-3" data-testid={`side-${key}`}>
      <legend className="px-1 text-sm font-semibold text-slate-900">Side {key}</legend>
      <FormField id={`pair-name-${key}`} label="Name" required error={errors[`name${key}`]?.message} testId={`name${key}`}>
        {(control) => (
          <Input
            {...control}
            maxLength={INTERACTION_PAIR_LIMITS.name}
            placeholder={key === 'A' ? 'e.g. SSRIs' : 'e.g. Tramadol'}
            {...register(`name${key}`)}
            disabled={saving}
          />
        )}
      </FormField>
      <FormField id={`pair-ingredients-${key}`} label="Ingredients" required error={errors[`ingredients${key}`]?.message} testId={`ingredients${key}`}>
        {(control) => (
          <>
            <Input
              {...control}
              aria-describedby={`pair-ingredients-${key}-hint`}
              placeholder={key === 'A' ? 'e.g. sertraline, fluoxetine' : 'e.g. tramadol'}
              {...register(`ingredients${key}`)}
              disabled={saving}
            />
            <p id={`pair-ingredients-${key}-hint`} className="text-xs text-slate-600">
              Separated by commas, up to {INTERACTION_PAIR_LIMITS.ingredients}, each an ingredient of the formulary.
            </p>
          </>
        )}
      </FormField>
    </fieldset>
  );

  return (
    <FormDialog
      onClose={onClose}
      className="max-w-2xl"
      testId="interaction-pair-dialog"
      title={pair ? 'Edit Interaction Pair' : 'New Interaction Pair'}
      description="A prescription of a drug from one side for a patient taking one from the other raises this alert, in either order."
    >
      <form noValidate autoComplete="off" aria-label={pair ? 'Edit interaction pair' : 'New interaction pair'} className="space-y-4" onSubmit={onSubmit}>
        {stale && <StaleBanner message={stale} reloadLabel="Close and reopen" reloading={false} onReload={onClose} testId="interaction-pair-stale" />}
        <div className="grid gap-4 sm:grid-cols-2">
          {side('A')}
          {side('B')}
        </div>
        <FormField id="pair-severity" label="Severity" required error={errors.severity?.message} testId="severity">
          {(control) => (
            <select {...control} className={SELECT_CLASS} {...register('severity')} disabled={saving}>
              <option value="">Choose how loud the alert is</option>
              {INTERACTION_SEVERITIES.map((severity) => (
                <option key={severity} value={severity}>
                  {SEVERITY_WORDS[severity]}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField id="pair-effect" label="Effect" required error={errors.effect?.message} testId="effect">
          {(control) => (
            <Input
              {...control}
              maxLength={INTERACTION_PAIR_LIMITS.effect}
              placeholder="What happens, as the prescriber reads it: e.g. Serotonin syndrome."
              {...register('effect')}
              disabled={saving}
            />
          )}
        </FormField>
        <ActiveCheckbox
          id="pair-active"
          label="In force"
          hint="Untick to retire it: the checks no longer raise it; prescriptions signed over it keep its alert."
          {...register('isActive')}
          disabled={saving}
        />
        {form.formError && <FormErrorAlert error={form.formError} testId="interaction-pair-error" />}
        <FormDialogFooter saving={saving} blocked={Boolean(stale)} submitLabel={pair ? 'Save Pair' : 'Add Pair'} onCancel={onClose} />
      </form>
    </FormDialog>
  );
}
