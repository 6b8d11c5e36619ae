import { useId, useState, type KeyboardEvent } from 'react';
import { Input } from './ui/input.tsx';
import { cn } from '../lib/utils.ts';

/** A catalogue entry as the picker lists it: its key, its name, and what tells it from its neighbours. */
export interface TCatalogueOption {
  key: string;
  label: string;
  hint: string;
}

/**
 * A coded field of the chart (a substance, a condition, a medication): typed, then chosen from
 * the catalogue's matches (a combobox: arrows and Enter, or a click), or kept as free text when
 * nothing fits. A coded choice says so under the field; typing again starts over as free text.
 */
export function CataloguePicker<O extends TCatalogueOption>({
  id,
  text,
  codedAs,
  placeholder,
  useOptions,
  onType,
  onChoose,
  invalid,
  describedBy,
  disabled,
  freeText = true,
}: {
  id: string;
  /** What the field shows: the chosen entry's name, or what was typed. */
  text: string;
  /** Set when the value was chosen from the catalogue: what it is ('Drug class from the catalogue'). */
  codedAs: string | null;
  placeholder: string;
  /** The matches of a term (a query hook: called on every render, with '' while the list is closed). */
  useOptions: (term: string) => { data?: O[] | undefined };
  onType: (text: string) => void;
  onChoose: (option: O) => void;
  invalid: boolean;
  describedBy: string | undefined;
  disabled: boolean;
  /** Whether what was typed may be kept as free text (a chart entry); a prescription takes only the catalogue's. */
  freeText?: boolean;
}) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const term = codedAs ? '' : text;
  const options = useOptions(open ? term : '').data ?? [];
  // The last choice keeps what was typed as free text.
  const offersText = freeText && term.trim() !== '';
  const count = options.length + (offersText ? 1 : 0);
  const choose = (index: number) => {
    const option = options[index];
    if (option) onChoose(option);
    else if (offersText) onType(term.trim());
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
        placeholder={placeholder}
        value={text}
        disabled={disabled}
        onChange={(event) => {
          onType(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        // Focused with a name typed (a note's item, a free-text entry): its matches show.
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
      />
      {codedAs && (
        <p className="mt-1 text-xs text-slate-600" data-testid="substance-coded">
          {codedAs}
        </p>
      )}
      {open && count > 0 && (
        <ul id={listId} role="listbox" className="absolute z-20 mt-1 max-h-64 w-full overflow-y-auto rounded-md border bg-white py-1 shadow-lg">
          {options.map((option, i) => (
            <li
              key={option.key}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={cn('flex cursor-pointer items-baseline justify-between gap-3 px-3 py-1.5 text-sm', i === active && 'bg-blue-50')}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(i)}
            >
              <span className="min-w-0 break-words">{option.label}</span>
              <span className="shrink-0 text-xs text-slate-600">{option.hint}</span>
            </li>
          ))}
          {offersText && (
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
