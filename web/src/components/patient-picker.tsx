import { Search, X } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';
import { usePatientSearch, type TPatientChoice } from '../api/patients/patient-search.ts';
import { useDebouncedValue } from '../hooks/use-debounced-value.ts';
import { apiErrorCode, describeApiError } from '../lib/api-errors.ts';
import { formatDateOfBirth, fullName } from '../lib/patient-format.ts';
import { cn } from '../lib/utils.ts';
import { PatientAllergyBanner } from './chart/patient-allergy-banner.tsx';
import { Button } from './ui/button.tsx';
import type { TFieldControlProps } from './ui/form-field.tsx';
import { Input } from './ui/input.tsx';
import { Spinner } from './ui/spinner.tsx';

/** Typing pauses this long before the server is asked. */
export const PATIENT_SEARCH_DEBOUNCE_MS = 250;

/** 'Olivia Hart #1a2b' (spec section 2: first and last name, '#' and the id's last four). */
export const patientChoiceLabel = (patient: Pick<TPatientChoice, 'id' | 'firstName' | 'lastName'>) => `${fullName(patient)} #${patient.id.slice(-4)}`;

/**
 * A chosen patient: who, and (when the form has them) what the summary line shows. Drawn from
 * the fields the search asks for, so the summary cannot come to need one it does not fetch.
 */
export type TChosenPatient = Pick<TPatientChoice, 'id' | 'firstName' | 'lastName'> & Partial<Pick<TPatientChoice, 'dateOfBirth' | 'phone'>>;

/**
 * The one patient picker (notes, chat rooms, scheduling): searches the server as you type, a
 * combobox with its list of matches, by mouse or keyboard (arrows, Enter, Escape). A search
 * typed past is aborted. Once chosen, the patient's summary line shows, with a way to change.
 */
export function PatientPicker({
  control,
  value,
  onChange,
  onBlur,
  disabled,
  allergyBanner = true,
}: {
  control: TFieldControlProps;
  value: TChosenPatient | null;
  onChange: (patient: TChosenPatient | null) => void;
  onBlur?: () => void;
  disabled?: boolean;
  /** The chosen patient's allergy banner (issue 51): for a clinical form, not for the audit trail's filter. */
  allergyBanner?: boolean;
}) {
  const listId = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const search = useDebouncedValue(text.trim(), PATIENT_SEARCH_DEBOUNCE_MS);
  const query = usePatientSearch(search, open && value === null);
  const matches: TPatientChoice[] = query.data ?? [];
  const searching = query.isFetching || search !== text.trim();

  if (value) {
    return (
      <div className="space-y-2 rounded-md border border-input bg-slate-50 px-3 py-2" data-testid="chosen-patient">
        <div className="flex items-start gap-2">
          <PatientSummary patient={value} />
          <Button
            variant="ghost"
            size="sm"
            className="h-7 shrink-0 px-2"
            disabled={disabled}
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
        {allergyBanner && <PatientAllergyBanner patientId={value.id} />}
      </div>
    );
  }

  const choose = (patient: TChosenPatient) => {
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
      // A dialog around it leaves an open list's Escape to it (see note-form-dialog.tsx).
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
        disabled={disabled}
        className="pl-9"
        data-testid="patient-search"
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
          className="absolute z-20 mt-1 max-h-64 w-full overflow-y-auto rounded-md border bg-background py-1 shadow-lg"
        >
          {matches.length === 0 ? (
            <li className="px-3 py-2 text-sm text-slate-600" role="presentation">
              {query.isError ? searchErrorText(query.error) : 'No patients found'}
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
                <span className="font-medium">{fullName(patient)}</span>
                <span className="text-slate-600"> #{patient.id.slice(-4)}</span>
              </li>
            ))
          )}
        </ul>
      )}
    </div>
  );
}

/**
 * A search the server stopped as too slow (503 `search.timeout`) says so in its own words, which
 * tell the user to type more of the name: the next keystroke is the retry.
 */
function searchErrorText(error: unknown): string {
  return apiErrorCode(error) === 'search.timeout' ? describeApiError(error).message : 'Could not search patients';
}

/** The summary line of the chosen patient: who, born when, and how to reach her (her allergies are the banner under it). */
export function PatientSummary({ patient }: { patient: TChosenPatient }) {
  const details = [
    patient.dateOfBirth ? `Born ${formatDateOfBirth(patient.dateOfBirth)}` : patient.dateOfBirth === null ? 'No DOB' : null,
    patient.phone,
  ].filter(Boolean);
  return (
    <div className="min-w-0 flex-1 text-sm" data-testid="patient-summary">
      <p className="font-medium text-slate-900">{patientChoiceLabel(patient)}</p>
      <p className="break-words text-slate-600">{details.join(' · ')}</p>
    </div>
  );
}
