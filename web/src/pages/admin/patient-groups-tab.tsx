import { ChevronDown, ChevronUp, Copy, Pencil, Plus, Trash2, UserPlus, Users } from 'lucide-react';
import { useState } from 'react';
import { useController } from 'react-hook-form';
import { z, type ZodType } from 'zod';
import type { TCurrentUser } from '#domain/auth';
import { formatClinicTime } from '#domain/clinic-time';
import { ZAddGroupMembers, ZRenamePatientGroup, type TPatientGroup, type TPatientGroupMember } from '#domain/patient-groups';
import {
  useAddGroupMembers,
  useCreatePatientGroup,
  useDeletePatientGroup,
  usePatientGroup,
  usePatientGroups,
  useRemoveGroupMember,
  useRenamePatientGroup,
} from '../../api/patient-groups/patient-groups.ts';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { PatientPicker, patientChoiceLabel, type TChosenPatient } from '../../components/patient-picker.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { FormDialog, FormDialogFooter } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { LoadingBlock, Spinner } from '../../components/ui/spinner.tsx';
import { copyWithToast } from '../../lib/clipboard.ts';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';

/** The Bulk Data export of one group, as an API client asks for it. */
const exportPath = (id: string) => `/fhir/R4/Group/${id}/$export`;

/**
 * Admin Panel → Patient Groups (issue 53; docs/decisions/fhir.md): patients the clinic puts
 * together (a study, a payer's members, a care programme). An API client reads a group as FHIR
 * `Group` and exports its patients' records with `Group/{id}/$export`. Opening a group reads its
 * members' names (audited); the list shows only counts.
 */
export function PatientGroupsTab(_props: { user: TCurrentUser }) {
  const groups = usePatientGroups();
  const { timeZone } = useClinicTimeZone();
  // The groups whose members are shown: a new group opens, ready for its first patient.
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string, show: boolean) =>
    setOpen((current) => {
      const next = new Set(current);
      if (show) next.add(id);
      else next.delete(id);
      return next;
    });
  return (
    <section aria-labelledby="patient-groups-title" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="patient-groups-title" className="text-lg font-semibold text-slate-900">
            Patient groups
          </h2>
          <p className="max-w-2xl text-sm text-slate-600">
            Patients the clinic puts together: a study, a payer&apos;s members, a care programme. API clients can export a group&apos;s records with{' '}
            <code className="break-all rounded bg-slate-100 px-1 text-xs">GET {exportPath('{id}')}</code> (FHIR Bulk Data); give them the group&apos;s id. Each
            client sees only the members its staff account may see.
          </p>
        </div>
        <NewGroupButton onCreated={(id) => toggle(id, true)} />
      </div>
      {groups.isPending ? (
        <LoadingBlock />
      ) : groups.isError ? (
        <ErrorState title="Could not load the patient groups" error={groups.error} onRetry={() => void groups.refetch()} />
      ) : groups.data.length === 0 ? (
        <Card data-testid="patient-groups-empty">
          <CardContent className="p-8 text-center">
            <p className="font-semibold text-slate-900">No patient groups yet</p>
            <p className="mt-1 text-sm text-slate-600">Create one when a study, a payer or a programme needs its patients&apos; records.</p>
          </CardContent>
        </Card>
      ) : (
        <ul className="space-y-3">
          {groups.data.map((group) => (
            <GroupRow key={group.id} group={group} timeZone={timeZone} open={open.has(group.id)} onToggle={(show) => toggle(group.id, show)} />
          ))}
        </ul>
      )}
    </section>
  );
}

const membersLabel = (count: number) => (count === 1 ? '1 patient' : `${count} patients`);

function GroupRow({ group, timeZone, open, onToggle }: { group: TPatientGroup; timeZone: string; open: boolean; onToggle: (show: boolean) => void }) {
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const remove = useDeletePatientGroup();
  const membersId = `group-members-${group.id}`;
  const doDelete = () =>
    remove.mutate(group.id, {
      onSuccess: () => {
        setDeleting(false);
        toast({ title: 'Patient group deleted', description: `${group.name} is gone; its patients stay as they are.`, variant: 'success' });
      },
      onError: (error) => reportMutationError(error, 'Could not delete the group', { withReason: true }),
    });
  return (
    <li className="rounded-lg border bg-white p-4" data-testid="patient-group" data-group-id={group.id}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 font-semibold text-slate-900">
            <Users className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
            <span className="min-w-0 break-words" data-testid="patient-group-name">
              {group.name}
            </span>
            <Badge variant="secondary" data-testid="patient-group-count">
              {membersLabel(group.memberCount)}
            </Badge>
          </p>
          {/* Each fact whole on its line: an id may break anywhere, a date never. */}
          <ul className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-0.5 text-xs text-slate-500" aria-label="About this group">
            <li className="flex min-w-0 flex-wrap items-center gap-x-1">
              <span className="whitespace-nowrap">Group id</span>
              <span className="break-all font-mono text-slate-700" data-testid="patient-group-id">
                {group.id}
              </span>
              <Button
                variant="ghost"
                size="sm"
                className="h-7 px-2"
                onClick={() => void copyWithToast(group.id, 'Group id copied', 'Select the id and copy it yourself.')}
              >
                <Copy aria-hidden="true" />
                Copy<span className="sr-only"> the id of {group.name}</span>
              </Button>
            </li>
            <li className="whitespace-nowrap">
              Created {formatClinicTime(group.createdAt, timeZone)}
              {group.createdByName ? ` by ${group.createdByName}` : ''}
            </li>
          </ul>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <Button variant="outline" size="sm" aria-expanded={open} aria-controls={membersId} onClick={() => onToggle(!open)} data-testid="patient-group-toggle">
            {open ? <ChevronUp aria-hidden="true" /> : <ChevronDown aria-hidden="true" />}
            {open ? 'Hide members' : 'Members'}
            <span className="sr-only"> of {group.name}</span>
          </Button>
          <Button variant="outline" size="sm" onClick={() => setRenaming(true)}>
            <Pencil aria-hidden="true" />
            Rename<span className="sr-only"> {group.name}</span>
          </Button>
          <Button variant="outline" size="sm" onClick={() => setDeleting(true)}>
            <Trash2 aria-hidden="true" />
            Delete<span className="sr-only"> {group.name}</span>
          </Button>
        </div>
      </div>
      {open && (
        <div id={membersId} className="mt-4 border-t pt-4">
          <GroupMembers group={group} />
        </div>
      )}
      {renaming && <RenameGroupDialog group={group} onClose={() => setRenaming(false)} />}
      <ConfirmDialog
        open={deleting}
        title={`Delete ${group.name}?`}
        description="The group and its list of members go; the patients and their records stay. An API client can no longer export it."
        confirmLabel="Delete group"
        pending={remove.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={doDelete}
      />
    </li>
  );
}

/** The group's members, read when opened (a read of their names, in the audit trail), with a way to add and remove them. */
function GroupMembers({ group }: { group: TPatientGroup }) {
  const detail = usePatientGroup(group.id, true);
  const [adding, setAdding] = useState(false);
  return (
    <div className="space-y-3" data-testid="patient-group-members">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-900">Members</h3>
        <Button size="sm" onClick={() => setAdding(true)} data-testid="patient-group-add">
          <UserPlus aria-hidden="true" />
          Add patient<span className="sr-only"> to {group.name}</span>
        </Button>
      </div>
      {detail.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-600" role="status">
          <Spinner className="size-4" />
          Loading members…
        </p>
      ) : detail.isError ? (
        <ErrorState title="Could not load the members" error={detail.error} onRetry={() => void detail.refetch()} />
      ) : detail.data.members.length === 0 ? (
        <p className="rounded-md border border-dashed p-4 text-center text-sm text-slate-600" data-testid="patient-group-no-members">
          No patients in this group yet. Add the first with &lsquo;Add patient&rsquo;.
        </p>
      ) : (
        <ul className="divide-y rounded-md border" aria-label={`Members of ${group.name}`}>
          {detail.data.members.map((member) => (
            <MemberRow key={member.id} groupId={group.id} member={member} />
          ))}
        </ul>
      )}
      {adding && <AddMemberDialog group={group} onClose={() => setAdding(false)} />}
    </div>
  );
}

function MemberRow({ groupId, member }: { groupId: string; member: TPatientGroupMember }) {
  const remove = useRemoveGroupMember();
  const label = patientChoiceLabel(member);
  const doRemove = () =>
    remove.mutate(
      { id: groupId, patientId: member.id },
      {
        onSuccess: () => toast({ title: 'Removed from the group', description: label, variant: 'success' }),
        onError: (error) => reportMutationError(error, 'Could not remove the patient', { withReason: true }),
      },
    );
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 px-3 py-2" data-testid="patient-group-member" data-patient-id={member.id}>
      <span className="min-w-0 break-words text-sm text-slate-900">
        {label}
        {!member.isActive && (
          <Badge variant="outline" className="ml-2 align-middle">
            Inactive
          </Badge>
        )}
      </span>
      <Button variant="ghost" size="sm" onClick={doRemove} disabled={remove.isPending}>
        {remove.isPending && <Spinner className="size-4" />}
        Remove<span className="sr-only"> {label}</span>
      </Button>
    </li>
  );
}

/** The group's name, by the server's own rule (domain/patient-groups.ts). */
type TNameValues = z.input<typeof ZRenamePatientGroup>;
const NAME_FIELDS = ['name'] as const;

function NewGroupButton({ onCreated }: { onCreated: (id: string) => void }) {
  const [open, setOpen] = useState(false);
  const create = useCreatePatientGroup();
  const form = useAppForm<TNameValues, z.output<typeof ZRenamePatientGroup>>({ schema: ZRenamePatientGroup, defaultValues: { name: '' }, fields: NAME_FIELDS });
  const close = () => {
    setOpen(false);
    form.reset();
    form.setFormError(null);
  };
  const onSubmit = form.onSubmit((values) =>
    create.mutate(
      { body: { name: values.name } },
      {
        onSuccess: (group) => {
          toast({ title: 'Patient group created', description: `${group.name}: add its patients now.`, variant: 'success' });
          onCreated(group.id);
          close();
        },
        onError: (error) => void form.failed(error, 'Could not create the group', { withReason: true }),
      },
    ),
  );
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="new-patient-group">
        <Plus aria-hidden="true" />
        New group
      </Button>
      <FormDialog
        open={open}
        onClose={close}
        className="max-w-md"
        testId="new-patient-group-dialog"
        title="New patient group"
        description="Name it; you add its patients next."
      >
        <form noValidate autoComplete="off" aria-label="New patient group" className="space-y-4" onSubmit={onSubmit}>
          {form.formError && <FormErrorAlert error={form.formError} testId="new-patient-group-error" />}
          <FormField id="patient-group-name" label="Name" required error={form.formState.errors.name?.message}>
            {(control) => <Input {...control} placeholder="e.g. Diabetes study 2026" {...form.register('name')} />}
          </FormField>
          <FormDialogFooter saving={create.isPending} submitLabel="Create group" onCancel={close} />
        </form>
      </FormDialog>
    </>
  );
}

function RenameGroupDialog({ group, onClose }: { group: TPatientGroup; onClose: () => void }) {
  const rename = useRenamePatientGroup();
  const form = useAppForm<TNameValues, z.output<typeof ZRenamePatientGroup>>({
    schema: ZRenamePatientGroup,
    defaultValues: { name: group.name },
    fields: NAME_FIELDS,
  });
  const onSubmit = form.onSubmit((values) =>
    rename.mutate(
      { id: group.id, body: { name: values.name } },
      {
        onSuccess: (saved) => {
          toast({ title: 'Patient group renamed', description: saved.name, variant: 'success' });
          onClose();
        },
        onError: (error) => void form.failed(error, 'Could not rename the group', { withReason: true }),
      },
    ),
  );
  return (
    <FormDialog onClose={onClose} className="max-w-md" testId="rename-patient-group-dialog" title="Rename patient group" description={`Now: ${group.name}`}>
      <form noValidate autoComplete="off" aria-label="Rename patient group" className="space-y-4" onSubmit={onSubmit}>
        {form.formError && <FormErrorAlert error={form.formError} testId="rename-patient-group-error" />}
        <FormField id="patient-group-rename" label="Name" required error={form.formState.errors.name?.message}>
          {(control) => <Input {...control} {...form.register('name')} />}
        </FormField>
        <FormDialogFooter saving={rename.isPending} submitLabel="Save name" onCancel={onClose} />
      </form>
    </FormDialog>
  );
}

/** The form: one patient, searched with the shared picker; sent as the list the server takes. */
interface TAddValues {
  patient: TChosenPatient | null;
}
const ZAddForm = z.object({
  patient: z
    .custom<TChosenPatient | null>()
    .refine((chosen) => chosen !== null, 'Choose a patient')
    .transform((chosen) => (chosen ? [chosen.id] : []))
    .pipe(ZAddGroupMembers.shape.patientIds),
});
type TAddOutput = z.output<typeof ZAddForm>;

function AddMemberDialog({ group, onClose }: { group: TPatientGroup; onClose: () => void }) {
  const add = useAddGroupMembers();
  const form = useAppForm<TAddValues, TAddOutput>({
    schema: ZAddForm as ZodType<TAddOutput, TAddValues>,
    defaultValues: { patient: null },
    fields: ['patient'],
    serverPaths: { patientIds: 'patient', 'patientIds.0': 'patient' },
  });
  const { field, fieldState } = useController({ control: form.control, name: 'patient' });
  const onSubmit = form.onSubmit((values) =>
    add.mutate(
      { id: group.id, body: { patientIds: values.patient } },
      {
        onSuccess: () => {
          toast({
            title: 'Added to the group',
            description: `${field.value ? patientChoiceLabel(field.value) : 'The patient'} is in ${group.name}.`,
            variant: 'success',
          });
          onClose();
        },
        onError: (error) => void form.failed(error, 'Could not add the patient', { withReason: true }),
      },
    ),
  );
  return (
    <FormDialog
      onClose={onClose}
      className="max-w-lg"
      testId="add-group-member-dialog"
      title={`Add a patient to ${group.name}`}
      description="Search by name or email."
    >
      <form noValidate autoComplete="off" aria-label="Add a patient to the group" className="space-y-4" onSubmit={onSubmit}>
        {form.formError && <FormErrorAlert error={form.formError} testId="add-group-member-error" />}
        {/* Room for the list of matches above the buttons: the dialog scrolls, and would cut the list off. */}
        <div className="min-h-[21rem]">
          <FormField id="group-member-patient" label="Patient" required error={fieldState.error?.message} testId="patientId">
            {/* No allergy banner: choosing whom a group holds needs no look at her chart. */}
            {(control) => (
              <PatientPicker
                control={control}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                disabled={add.isPending}
                allergyBanner={false}
              />
            )}
          </FormField>
        </div>
        <FormDialogFooter saving={add.isPending} submitLabel="Add to group" onCancel={onClose} />
      </form>
    </FormDialog>
  );
}
