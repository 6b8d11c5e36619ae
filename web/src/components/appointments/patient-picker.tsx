import { Search, X } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';
import type { TPatient } from '#domain/patients';
import { usePatients } from '../../api/patients/patients.ts';
import { useDebouncedValue } from '../../hooks/use-debounced-value.ts';
import { formatDateOfBirth } from '../../lib/patient-format.ts';
import { cn } from '../../lib/utils.ts';
import { Button } from '../ui/button.tsx';
import type { TFieldControlProps } from '../ui/form-field.tsx';
import { Input } from '../ui/input.tsx';
import { Spinner } from '../ui/spinner.tsx';

const SEARCH_DEBOUNCE_MS = 250;
/** Matches offered at once; typing more narrows them. */
const SHOWN_MATCHES = 8;

/** 'Olivia Hart #1a2b' (spec section 2: first and last name, '#' and the id's last four). */
export const patientChoiceLabel = (patient: Pick<TPatient, 'id' | 'firstName' | 'lastName'>) =>
  `${patient.firstName} ${patient.lastName} #${patient.id.slice(-4)}`;

/**
 * Chooses a patient by searching as you type (GET /api/patients?search=): a combobox with a
 * list of matches, by mouse or keyboard (arrows, Enter, Escape). Once chosen, the patient is
 * shown with a way to change them.
 */
export function PatientPicker({ control, value, onChange, onBlur }: {
  control: TFieldControlProps;
  value: Pick<TPatient, 'id' | 'firstName' | 'lastName'> | null;
  onChange: (patient: TPatient | null) => void;
  onBlur?: () => void;
}) {
  const listId = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const search = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const query = usePatients(search);
  const matches = (query.data?.pages[0]?.patients ?? []).slice(0, SHOWN_MATCHES);
  const searching = query.isFetching || search !== text.trim();

  if (value) {
    return (
      <div className="flex items-center gap-2 rounded-md border border-input bg-slate-50 px-3 py-2" data-testid="chosen-patient">
        <span className="min-w-0 flex-1 truncate text-sm font-medium text-slate-900">{patientChoiceLabel(value)}</span>
        <Button
          variant="ghost"
          size="sm"
          className="h-7 px-2"
          onClick={() => {
            onChange(null);
            setText('');
            setOpen(true);
          }}
        >
          <X aria-hidden="true" />
          Change<span className="sr-only"> patient</span>
        </Button>
      </div>
    );
  }

  const choose = (patient: TPatient) => {
    onChange(patient);
    setOpen(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((i) => Math.min(i + 1, matches.length - 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (event.key === 'Enter') {
      const patient = matches[active];
      if (open && patient) {
        event.preventDefault();
        choose(patient);
      }
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  };
  const showList = open && (matches.length > 0 || !searching);

  return (
    <div className="relative">
      <Search className="pointer-events-none absolute left-3 top-3 size-4 text-slate-500" aria-hidden="true" />
      <Input
        {...control}
        role="combobox"
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && matches[active] ? `${listId}-${matches[active].id}` : undefined}
        placeholder="Search patients by name or email..."
        autoComplete="off"
        value={text}
        className="pl-9"
        onChange={(event) => {
          setText(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => {
          setOpen(false);
          onBlur?.();
        }}
        onKeyDown={onKeyDown}
      />
      {searching && open && <Spinner className="absolute right-3 top-3 size-4" />}
      {showList && (
        <ul
          id={listId}
          role="listbox"
          aria-label="Matching patients"
          className="absolute z-20 mt-1 max-h-72 w-full overflow-y-auto rounded-md border bg-background py-1 shadow-lg"
        >
          {matches.length === 0 ? (
            <li className="px-3 py-2 text-sm text-slate-600" role="presentation">
              {query.isError ? 'Could not search patients' : 'No patients found'}
            </li>
          ) : (
            matches.map((patient, i) => (
              <li
                key={patient.id}
                id={`${listId}-${patient.id}`}
                role="option"
                aria-selected={i === active}
                data-testid="patient-option"
                // Chosen before the input's blur closes the list.
                onMouseDown={(event) => {
                  event.preventDefault();
                  choose(patient);
                }}
                onMouseEnter={() => setActive(i)}
                className={cn('cursor-pointer px-3 py-2 text-sm', i === active && 'bg-blue-50 text-blue-900')}
              >
                <span className="font-medium">{patient.firstName} {patient.lastName}</span>
                <span className="text-slate-600"> #{patient.id.slice(-4)}</span>
                {patient.dateOfBirth && <span className="text-slate-600"> · born {formatDateOfBirth(patient.dateOfBirth)}</span>}
              </li>
            ))
          )}
        </ul>
      )}
    </div>
  );
}
