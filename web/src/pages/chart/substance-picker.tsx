import { useId, useState, type KeyboardEvent } from 'react';
import type { TSubstanceOption } from '#domain/chart';
import { useSubstances } from '../../api/chart/allergies.ts';
import { Input } from '../../components/ui/input.tsx';
import { cn } from '../../lib/utils.ts';
import { ALLERGY_CATEGORY_LABELS } from './chart-labels.ts';
import type { TAllergyFormValues } from './allergy-form-values.ts';

const KIND_LABELS = { class: 'Drug class', ingredient: 'Drug', allergen: 'Allergen' } as const;

/**
 * The allergy's substance: typed, then chosen from the catalogue's drug classes, drugs and
 * allergens (a combobox: arrows and Enter, or a click), or kept as free text when nothing fits.
 * A coded choice shows as chosen; typing again starts over.
 */
export function SubstancePicker({
  id,
  value,
  onChange,
  invalid,
  describedBy,
  disabled,
}: {
  id: string;
  value: TAllergyFormValues['substance'];
  onChange: (substance: TAllergyFormValues['substance'], category?: TSubstanceOption['category']) => void;
  invalid: boolean;
  describedBy: string | undefined;
  disabled: boolean;
}) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const term = value.kind === 'text' || value.kind === '' ? value.name : '';
  const found = useSubstances(open ? term : '');
  const options = found.data ?? [];
  // The last choice: keep what was typed as free text.
  const count = options.length + (term.trim() ? 1 : 0);
  const choose = (index: number) => {
    const option = options[index];
    if (option) onChange({ kind: option.kind, code: option.code, name: option.name }, option.category);
    else onChange({ kind: 'text', code: '', name: term.trim() });
    setOpen(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!open || count === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => (i + (event.key === 'ArrowDown' ? 1 : count - 1)) % count);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(active);
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  };
  const coded = value.kind !== '' && value.kind !== 'text';
  return (
    <div className="relative">
      <Input
        id={id}
        role="combobox"
        aria-expanded={open && count > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && count > 0 ? `${listId}-${active}` : undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        autoComplete="off"
        placeholder="Type a drug, a drug class or an allergen"
        value={value.name}
        disabled={disabled}
        onChange={(event) => {
          onChange({ kind: 'text', code: '', name: event.target.value });
          setActive(0);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      {coded && (
        <p className="mt-1 text-xs text-slate-600" data-testid="substance-coded">
          {KIND_LABELS[value.kind as keyof typeof KIND_LABELS]} from the catalogue
        </p>
      )}
      {open && count > 0 && (
        <ul id={listId} role="listbox" className="absolute z-20 mt-1 max-h-64 w-full overflow-y-auto rounded-md border bg-white py-1 shadow-lg">
          {options.map((option, i) => (
            <li
              key={`${option.kind}-${option.code}`}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={cn('flex cursor-pointer items-baseline justify-between gap-3 px-3 py-1.5 text-sm', i === active && 'bg-blue-50')}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(i)}
            >
              <span className="min-w-0 break-words">{option.name}</span>
              <span className="shrink-0 text-xs text-slate-600">
                {KIND_LABELS[option.kind]} · {ALLERGY_CATEGORY_LABELS[option.category]}
              </span>
            </li>
          ))}
          {term.trim() && (
            <li
              id={`${listId}-${options.length}`}
              role="option"
              aria-selected={active === options.length}
              className={cn('cursor-pointer px-3 py-1.5 text-sm italic text-slate-700', active === options.length && 'bg-blue-50')}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(options.length)}
            >
              Record “{term.trim()}” as free text
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
