import * as Tabs from '@radix-ui/react-tabs';
import { useQueryClient } from '@tanstack/react-query';
import { Plus, UserPlus } from 'lucide-react';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import type { TServerMessage } from '#domain/live-events';
import type { TNote } from '#domain/notes';
import { can } from '#domain/permissions';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { invalidateNotes } from '../../api/notes/notes.ts';
import { usePatient } from '../../api/patients/patient.ts';
import { filteredPatientName, PatientFilterBar } from '../../components/patient-filter-bar.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useLiveMessages } from '../../live/live-provider.tsx';
import type { TNoteCardActions } from './note-card.tsx';
import { NoteFormDialog, type TNoteDialogState } from './note-form-dialog.tsx';
import { NoteList } from './note-list.tsx';
import { NotesHeader } from './notes-header.tsx';
import { WorkflowTab } from './workflow-tab.tsx';

// The amendment, history and Add Scribe dialogs load the first time someone opens one.
const AmendNoteDialog = lazy(async () => ({ default: (await import('./amend-note-dialog.tsx')).AmendNoteDialog }));
const AddScribeDialog = lazy(async () => ({ default: (await import('./add-scribe-dialog.tsx')).AddScribeDialog }));
const NoteHistoryDialog = lazy(async () => ({ default: (await import('./note-history-dialog.tsx')).NoteHistoryDialog }));

const TABS = [
  { value: 'mine', label: 'My Notes' },
  { value: 'pending', label: 'Pending Review' },
  { value: 'reviewed', label: 'Reviewed' },
  { value: 'workflow', label: 'Workflow' },
] as const;
type TTab = (typeof TABS)[number]['value'];
const isTab = (value: string | null): value is TTab => TABS.some((tab) => tab.value === value);

const TRIGGER =
  'inline-flex items-center justify-center whitespace-nowrap rounded px-3 py-1.5 text-sm font-medium text-slate-700 transition-colors hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm sm:px-4';

/** The address of the screen with a tab and a patient filter; the defaults are left out. */
function notesHref(tab: TTab, patientId: string | undefined): string {
  const params = new URLSearchParams();
  if (patientId) params.set('patientId', patientId);
  if (tab !== 'mine') params.set('tab', tab);
  const search = params.toString();
  return search ? `/notes?${search}` : '/notes';
}

/**
 * /notes (spec section 2): My Notes (every note the user may see), Pending Review, Reviewed and
 * the Workflow illustration; one patient's notes when reached with ?patientId= (the
 * appointments screen's 'Notes'). The open tab is kept in the address (?tab=).
 */
export function NotesPage({ user }: { user: TCurrentUser }) {
  const params = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const patientId = params.get('patientId') || undefined;
  const requested = params.get('tab');
  const tab: TTab = isTab(requested) ? requested : 'mine';
  const { timeZone } = useClinicTimeZone();
  const [dialog, setDialog] = useState<TNoteDialogState>(null);
  const [amending, setAmending] = useState<TNote | null>(null);
  const [history, setHistory] = useState<TNote | null>(null);
  const [addingScribe, setAddingScribe] = useState(false);
  const mayCreate = can(user, 'notes.create');
  const queryClient = useQueryClient();
  // A note moving on reaches those it concerns as a notification (the scribes when one is
  // submitted, the finalizers when it is reviewed, the author when it is final), and resolves
  // the notices of its last stage (another scribe's Pending Review drops it): the lists are read
  // again then, and after a gap in the live connection.
  const onLive = useCallback(
    (message: TServerMessage) => {
      if (message.type === 'notification' || message.type === 'notifications_resolved' || message.type === 'resync') void invalidateNotes(queryClient);
    },
    [queryClient],
  );
  useLiveMessages(onLive);

  const actions = useMemo<TNoteCardActions>(() => ({ onEdit: (note) => setDialog({ mode: 'edit', note }), onAmend: setAmending, onHistory: setHistory }), []);
  const common = { user, timeZone, actions };

  return (
    <div className="mx-auto max-w-5xl">
      <NotesHeader
        actions={
          (mayCreate || can(user, 'notes.addScribe')) && (
            <div className="flex flex-wrap gap-2">
              {can(user, 'notes.addScribe') && (
                <Button variant="outline" onClick={() => setAddingScribe(true)}>
                  <UserPlus aria-hidden="true" />
                  Add Scribe
                </Button>
              )}
              {mayCreate && (
                <Button onClick={() => setDialog({ mode: 'create', patientId })}>
                  <Plus aria-hidden="true" />
                  Create New Note
                </Button>
              )}
            </div>
          )
        }
      />

      {patientId && <PatientFilter patientId={patientId} tab={tab} />}

      <Tabs.Root value={tab} onValueChange={(value) => isTab(value) && navigate(notesHref(value, patientId), { replace: true })}>
        <Tabs.List aria-label="Note views" className="mb-4 grid w-full grid-cols-2 gap-1 rounded-md bg-slate-100 p-1 sm:inline-flex sm:w-auto">
          {TABS.map(({ value, label }) => (
            <Tabs.Trigger key={value} value={value} className={TRIGGER}>
              {label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="mine" className="focus-visible:outline-none">
          <NoteList
            {...common}
            heading="My Notes"
            filter={{ patientId }}
            loadingLabel="Loading notes"
            errorTitle="Could not load notes"
            empty={
              <>
                <p className="font-medium text-slate-900">No notes found</p>
                <p>{can(user, 'notes.writeVisitNotes') ? 'Create your first patient note to get started' : 'No notes available for review'}</p>
              </>
            }
          />
        </Tabs.Content>
        <Tabs.Content value="pending" className="focus-visible:outline-none">
          <NoteList
            {...common}
            heading="Pending Review"
            filter={{ patientId, status: 'submitted_to_scribe' }}
            loadingLabel="Loading notes pending review"
            errorTitle="Could not load the notes pending review"
            empty={<p className="font-medium text-slate-900">No pending notes</p>}
          />
        </Tabs.Content>
        <Tabs.Content value="reviewed" className="focus-visible:outline-none">
          <NoteList
            {...common}
            heading="Reviewed"
            filter={{ patientId, status: 'reviewed_by_scribe' }}
            loadingLabel="Loading reviewed notes"
            errorTitle="Could not load the reviewed notes"
            empty={<p className="font-medium text-slate-900">No reviewed notes</p>}
          />
        </Tabs.Content>
        <Tabs.Content value="workflow" className="focus-visible:outline-none">
          <WorkflowTab patientId={patientId} active={tab === 'workflow'} />
        </Tabs.Content>
      </Tabs.Root>

      <NoteFormDialog state={dialog} user={user} onClose={() => setDialog(null)} />
      {amending && (
        <Suspense fallback={null}>
          <AmendNoteDialog note={amending} onClose={() => setAmending(null)} />
        </Suspense>
      )}
      {history && (
        <Suspense fallback={null}>
          <NoteHistoryDialog note={history} timeZone={timeZone} onClose={() => setHistory(null)} />
        </Suspense>
      )}
      {addingScribe && (
        <Suspense fallback={null}>
          <AddScribeDialog user={user} timeZone={timeZone} onClose={() => setAddingScribe(false)} />
        </Suspense>
      )}
    </div>
  );
}

/** Which patient the screen is filtered to, with her allergies, and the way back to every note. */
function PatientFilter({ patientId, tab }: { patientId: string; tab: TTab }) {
  const name = filteredPatientName(patientId, usePatient(patientId));
  return <PatientFilterBar patientId={patientId} heading={`Notes for ${name}`} clearHref={notesHref(tab, undefined)} clearLabel="Show all notes" />;
}
