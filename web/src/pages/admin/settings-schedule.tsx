import { X } from 'lucide-react';
import { useRef, useState, type KeyboardEvent } from 'react';
import { useWatch } from 'react-hook-form';
import { LATE_CANCEL_HOURS_RANGE, ROOMS_MAX, WEEKDAYS, ZRooms, type TClinicSettings, type TWeekday } from '#domain/settings';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { cn } from '../../lib/utils.ts';
import type { TAppForm } from '../../lib/use-app-form.ts';
import { openingHoursText, type TSettingsFormOutput, type TSettingsFormValues } from './settings-form-values.ts';

type TSettingsForm = TAppForm<TSettingsFormValues, TSettingsFormOutput>;

const dayLabel = (day: TWeekday) => `${day[0]!.toUpperCase()}${day.slice(1)}`;
/** Day, Closed, Opens, Closes: the columns on a wide screen. */
const DAY_GRID = 'sm:grid-cols-[6rem_4.5rem_minmax(0,1fr)_minmax(0,1fr)] sm:gap-x-3';

/**
 * Settings → Schedule (issue 34): the clinic's opening hours, its rooms and what counts as a
 * late cancellation. Part of the one settings form and its one save; Reports reads them
 * (Schedule use's open room time, No-shows' late cancellations).
 */
export function ScheduleSettings({ form, defaults }: { form: TSettingsForm; defaults: TClinicSettings['defaults'] }) {
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <section aria-labelledby="settings-schedule-title" className="grid gap-5 border-t pt-5" data-testid="settings-schedule">
      <div>
        <h3 id="settings-schedule-title" className="text-base font-semibold text-slate-900">
          Schedule
        </h3>
        <p className="text-sm text-slate-600">
          What Reports measure the clinic's days against: the hours it is open, the rooms visits are booked in, and late cancellations.
        </p>
      </div>

      <div role="group" aria-labelledby="settings-hours-title" aria-describedby="settings-hours-hint" className="grid gap-3">
        <p id="settings-hours-title" className="text-sm font-medium">
          Opening hours
        </p>
        {/* The columns' names on a wide screen; on a phone each row names its own fields. */}
        <div aria-hidden="true" className={cn(DAY_GRID, 'hidden text-xs font-semibold uppercase tracking-wide text-slate-600 sm:grid')}>
          <span>Day</span>
          <span>Closed</span>
          <span>Opens</span>
          <span>Closes</span>
        </div>
        {WEEKDAYS.map((day) => (
          <OpeningDay key={day} form={form} day={day} />
        ))}
        <p id="settings-hours-hint" className="text-xs text-slate-600">
          In the clinic's time zone. Default: {openingHoursText(defaults.openingHours)}
        </p>
      </div>

      <RoomsEditor form={form} />

      <FormField id="settings-late-cancel" label="Late cancellation (hours)" required error={errors.lateCancelHours?.message} testId="lateCancelHours">
        {(control) => (
          <>
            <Input
              {...control}
              aria-describedby={[control['aria-describedby'], 'settings-late-cancel-hint'].filter(Boolean).join(' ')}
              type="number"
              inputMode="numeric"
              min={LATE_CANCEL_HOURS_RANGE.min}
              max={LATE_CANCEL_HOURS_RANGE.max}
              step={1}
              required
              className="max-w-40"
              {...register('lateCancelHours', { valueAsNumber: true })}
            />
            <p id="settings-late-cancel-hint" className="text-xs text-slate-600">
              {LATE_CANCEL_HOURS_RANGE.min} to {LATE_CANCEL_HOURS_RANGE.max}. A visit cancelled less than this many hours before it starts counts as a late
              cancellation in the No-shows report. Default: {defaults.lateCancelHours}
            </p>
          </>
        )}
      </FormField>
    </section>
  );
}

/** A day's opening or closing time; named by the day and its own label (shown above it on a phone, as the column's heading on a wide screen). */
function ClockField(props: {
  form: TSettingsForm;
  day: TWeekday;
  edge: 'opens' | 'closes';
  label: string;
  dayId: string;
  invalid: true | undefined;
  describedBy: string | undefined;
}) {
  const id = `settings-${props.day}-${props.edge}`;
  return (
    <div className="grid min-w-0 gap-1">
      <label id={`${id}-label`} htmlFor={id} className="text-sm text-slate-700 sm:sr-only">
        {props.label}
      </label>
      <Input
        id={id}
        type="time"
        required
        aria-labelledby={`${props.dayId} ${id}-label`}
        aria-invalid={props.invalid}
        aria-describedby={props.describedBy}
        className="min-w-0 px-2"
        data-testid={`openingHours.${props.day}.${props.edge}`}
        {...props.form.register(`openingHours.${props.day}.${props.edge}`)}
      />
    </div>
  );
}

/** One day: closed, or open from one time to a later one. The times stay kept while the day is closed. */
function OpeningDay({ form, day }: { form: TSettingsForm; day: TWeekday }) {
  const { register, control } = form;
  const closed = useWatch({ control, name: `openingHours.${day}.closed` });
  const dayErrors = form.formState.errors.openingHours?.[day];
  const error = dayErrors?.opens?.message ?? dayErrors?.closes?.message ?? dayErrors?.message;
  const ids = { day: `settings-${day}`, closed: `settings-${day}-closed`, error: `settings-${day}-error` };
  const invalid = (field: 'opens' | 'closes') => (dayErrors?.[field] ? true : undefined);
  const describedBy = error ? ids.error : undefined;

  return (
    <div
      role="group"
      aria-labelledby={ids.day}
      data-testid={`opening-${day}`}
      className={cn(DAY_GRID, 'grid grid-cols-2 items-center gap-x-3 gap-y-2 rounded-md border p-3 sm:border-0 sm:p-0')}
    >
      <span id={ids.day} className="text-sm font-medium text-slate-900">
        {dayLabel(day)}
      </span>
      <label className="flex items-center gap-2 text-sm" htmlFor={ids.closed}>
        <input
          id={ids.closed}
          type="checkbox"
          aria-labelledby={`${ids.day} ${ids.closed}-label`}
          className="size-4 shrink-0 accent-blue-700"
          data-testid={`openingHours.${day}.closed`}
          {...register(`openingHours.${day}.closed`)}
        />
        <span id={`${ids.closed}-label`} className="sm:sr-only">
          Closed
        </span>
      </label>
      {closed ? (
        <p className="col-span-2 text-sm text-slate-600">Closed all day</p>
      ) : (
        <>
          <ClockField form={form} day={day} edge="opens" label="Opens" dayId={ids.day} invalid={invalid('opens')} describedBy={describedBy} />
          <ClockField form={form} day={day} edge="closes" label="Closes" dayId={ids.day} invalid={invalid('closes')} describedBy={describedBy} />
        </>
      )}
      {error && (
        <p id={ids.error} className="col-span-full text-sm text-red-700" data-testid={`openingHours.${day}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** The rooms, one at a time: a name and Add (or Enter), and a remove button on each. */
function RoomsEditor({ form }: { form: TSettingsForm }) {
  const rooms = useWatch({ control: form.control, name: 'rooms' });
  const [name, setName] = useState('');
  const [addError, setAddError] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const listError = form.formState.errors.rooms;
  const error = addError ?? listError?.message ?? (Array.isArray(listError) ? listError.find((e) => e?.message)?.message : undefined);
  const errorId = 'settings-rooms-error';

  const setRooms = (next: string[]) => {
    form.setValue('rooms', next, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
    form.clearErrors('rooms');
  };
  const add = () => {
    const room = name.trim();
    // The API's own rule (domain/settings.ts), on the list as it would be.
    const checked = ZRooms.safeParse([...rooms, room]);
    if (!checked.success) {
      setAddError(room === '' ? 'Enter a room name' : (checked.error.issues[0]?.message ?? 'Cannot add this room'));
      return;
    }
    setRooms(checked.data);
    setName('');
    setAddError(null);
    setSaid(`Room ${room} added`);
  };
  const remove = (room: string) => {
    setRooms(rooms.filter((r) => r !== room));
    setSaid(`Room ${room} removed`);
    input.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter adds the room rather than saving the whole form.
    if (event.key === 'Enter') {
      event.preventDefault();
      add();
    }
  };

  return (
    <div role="group" aria-labelledby="settings-rooms-title" className="grid gap-2" data-testid="settings-rooms">
      <p id="settings-rooms-title" className="text-sm font-medium">
        Rooms
      </p>
      {rooms.length > 0 ? (
        <ul aria-label="Rooms" className="flex flex-wrap gap-2" data-testid="settings-room-list">
          {rooms.map((room) => (
            <li key={room} className="inline-flex items-center gap-1 rounded-full border bg-slate-50 py-0.5 pl-3 pr-1 text-sm text-slate-900">
              {room}
              <Button type="button" variant="ghost" size="icon" className="size-7 rounded-full" aria-label={`Remove room ${room}`} onClick={() => remove(room)}>
                <X aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600">No rooms yet: Schedule use cannot measure open room time without them.</p>
      )}
      <div className="flex max-w-sm gap-2">
        <Label htmlFor="settings-new-room" className="sr-only">
          New room
        </Label>
        <Input
          ref={input}
          id="settings-new-room"
          value={name}
          maxLength={40}
          placeholder="Room name, such as 101"
          aria-invalid={error ? true : undefined}
          aria-describedby={[error ? errorId : null, 'settings-rooms-hint'].filter(Boolean).join(' ')}
          onChange={(event) => {
            setName(event.target.value);
            setAddError(null);
          }}
          onKeyDown={onKeyDown}
          data-testid="settings-new-room"
        />
        <Button type="button" variant="outline" onClick={add} disabled={rooms.length >= ROOMS_MAX} data-testid="settings-add-room">
          Add
        </Button>
      </div>
      {error && (
        <p id={errorId} className="text-sm text-red-700" data-testid="rooms-error">
          {error}
        </p>
      )}
      <p id="settings-rooms-hint" className="text-xs text-slate-600">
        The room names appointments are booked in, up to {ROOMS_MAX}. Default: none.
      </p>
      <p role="status" className="sr-only">
        {said}
      </p>
    </div>
  );
}
