import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TCurrentUser } from '#domain/auth';
import type { TNote } from '#domain/notes';
import { NoteFormDialog, type TNoteDialogState } from '../../web/src/pages/notes/note-form-dialog.tsx';
import { fakeApi } from './helpers/fake-api.ts';
import { note, NURSE, OLIVIA, PATIENT_ID, patient } from './helpers/fixtures.ts';
import { renderApp } from './helpers/render.tsx';

const ADMIN: TCurrentUser = { id: '00000000-0000-4000-8000-000000000003', email: 'ada@clinic.example', firstName: 'Ada', lastName: 'Okafor', role: 'admin' };
const SCRIBE_ID = '00000000-0000-4000-8000-000000000004';

// The note form as the notes screen opens it (its dialog, the form loaded on first open), driven
// by the keyboard and mouse; only fetch is faked.

function openForm(state: TNoteDialogState, user: TCurrentUser = NURSE) {
  const view = renderApp(<NoteFormDialog state={state} user={user} onClose={() => undefined} />);
  return { ...view, dialog: () => screen.getByRole('dialog') };
}

/** The form's own content field, once the lazily loaded form is there. */
const contentField = () => screen.findByLabelText(/^Content/);
const errorOf = (testId: string) => screen.queryByTestId(`${testId}-error`)?.textContent ?? null;

describe('a new note', () => {
  it('names each missing field under it and sends nothing', async () => {
    const api = fakeApi({});
    const { user } = openForm({ mode: 'create' });
    await contentField();
    expect(screen.getByRole('button', { name: 'Submit to Scribe' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Save Draft' }));

    await waitFor(() => expect(errorOf('content')).toBe('Content is required'));
    expect(errorOf('patientId')).toBe('Patient is required');
    expect(errorOf('noteType')).toBe('Note type is required');
    expect(screen.getByLabelText(/^Content/).getAttribute('aria-invalid')).toBe('true');
    expect(api.writes()).toEqual([]);

    // Fixing a field clears its error; whitespace is still no content.
    await user.selectOptions(screen.getByLabelText(/^Note type/), 'Progress Note');
    await user.type(screen.getByLabelText(/^Content/), '   ');
    await user.click(screen.getByRole('button', { name: 'Submit to Scribe' }));
    await waitFor(() => expect(errorOf('noteType')).toBeNull());
    expect(errorOf('content')).toBe('Content is required');
    expect(api.writes()).toEqual([]);
  });

  it("starts with the screen's patient and sends the note with the pressed action's status", async () => {
    const api = fakeApi({
      [`GET /api/patients/${PATIENT_ID}`]: () => ({ status: 200, json: patient() }),
      'POST /api/notes': ({ body }) => ({ status: 201, json: note(body as Partial<TNote>) }),
    });
    const { user } = openForm({ mode: 'create', patientId: PATIENT_ID });
    await screen.findByTestId('patient-summary');
    expect(screen.getByTestId('chosen-patient').textContent).toContain('Olivia Hart');
    await user.selectOptions(await screen.findByLabelText(/^Note type/), 'Follow-up Note');
    await user.type(screen.getByLabelText(/^Content/), 'Follow-up call done.');
    await user.click(screen.getByRole('button', { name: 'Submit to Scribe' }));

    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]).toMatchObject({
      method: 'POST',
      path: '/api/notes',
      body: { patientId: PATIENT_ID, noteType: 'Follow-up Note', content: 'Follow-up call done.', status: 'submitted_to_scribe', attachments: [] },
    });
    await screen.findByText('Note created successfully');
  });

  it("puts the server's 400 field errors under their fields, and the rest in the form's alert", async () => {
    const api = fakeApi({
      [`GET /api/patients/${PATIENT_ID}`]: () => ({ status: 200, json: patient() }),
      'GET /api/patients': () => ({ status: 200, json: [OLIVIA] }),
      'POST /api/notes': () => ({
        status: 400,
        json: {
          message: 'Validation failed',
          code: 'validation.failed',
          errors: [
            { path: 'patientId', message: 'This patient is no longer active' },
            { path: 'content', message: 'At most 100000 characters' },
          ],
        },
      }),
    });
    const { user } = openForm({ mode: 'create', patientId: PATIENT_ID });
    await screen.findByTestId('patient-summary');
    await user.selectOptions(screen.getByLabelText(/^Note type/), 'Progress Note');
    await user.type(screen.getByLabelText(/^Content/), 'Words');
    await user.click(screen.getByRole('button', { name: 'Save Draft' }));

    // The server names the patient by its id; the form shows it under its patient field.
    await waitFor(() => expect(errorOf('patientId')).toBe('This patient is no longer active'));
    expect(errorOf('content')).toBe('At most 100000 characters');
    expect(screen.queryByTestId('note-form-error')).toBeNull();
    await screen.findByText('Failed to create note');
    expect(api.writes()).toHaveLength(1);
  });

  it('shows field errors of fields the form does not have in its alert', async () => {
    fakeApi({
      [`GET /api/patients/${PATIENT_ID}`]: () => ({ status: 200, json: patient() }),
      'POST /api/notes': () => ({
        status: 400,
        json: { message: 'Validation failed', code: 'validation.failed', errors: [{ path: 'scribeId', message: 'Not a scribe' }] },
      }),
    });
    const { user } = openForm({ mode: 'create', patientId: PATIENT_ID });
    await screen.findByTestId('patient-summary');
    await user.selectOptions(screen.getByLabelText(/^Note type/), 'Progress Note');
    await user.type(screen.getByLabelText(/^Content/), 'Words');
    await user.click(screen.getByRole('button', { name: 'Save Draft' }));

    const alert = await screen.findByTestId('note-form-error');
    expect(alert.textContent).toContain('Could not save');
    expect(alert.textContent).toContain('scribeId: Not a scribe');
  });
});

describe('editing a note', () => {
  it('sends only the fields the user changed, with the version read', async () => {
    const draft = note({ content: 'First words', noteType: 'Progress Note' });
    const api = fakeApi({ [`PUT /api/notes/${draft.id}`]: () => ({ status: 200, json: { ...draft, content: 'Second words' } }) });
    const { user } = openForm({ mode: 'edit', note: draft });
    const content = await contentField();
    expect((content as HTMLTextAreaElement).value).toBe('First words');
    expect(screen.getByTestId('chosen-patient').textContent).toBe('Olivia Hart');

    await user.clear(content);
    await user.type(content, 'Second words');
    await user.click(screen.getByRole('button', { name: 'Save Draft' }));

    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]).toMatchObject({ method: 'PUT', path: `/api/notes/${draft.id}` });
    expect(api.writes()[0]!.body).toEqual({ updatedAt: draft.updatedAt, content: 'Second words' });
  });

  it('sends nothing when nothing changed', async () => {
    const api = fakeApi({});
    const { user } = openForm({ mode: 'edit', note: note() });
    await contentField();
    await user.click(screen.getByRole('button', { name: 'Save Draft' }));
    await screen.findByText('No changes to save');
    expect(api.writes()).toEqual([]);
  });

  it('sends the move alone when the text was typed back to what it was', async () => {
    const draft = note();
    const api = fakeApi({ [`PUT /api/notes/${draft.id}`]: () => ({ status: 200, json: { ...draft, status: 'submitted_to_scribe' } }) });
    const { user } = openForm({ mode: 'edit', note: draft });
    await contentField();
    // Typed and typed back: not a change.
    await user.type(screen.getByLabelText(/^Content/), '!');
    await user.type(screen.getByLabelText(/^Content/), '{Backspace}');
    await user.click(screen.getByRole('button', { name: 'Submit to Scribe' }));

    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]!.body).toEqual({ updatedAt: draft.updatedAt, status: 'submitted_to_scribe' });
  });

  it('says when someone else changed the note first, and reads it again on Reload note', async () => {
    const draft = note({ content: 'First words' });
    const theirs = note({ content: 'Their words', updatedAt: '2026-03-04T09:31:00.000001Z' });
    const api = fakeApi({
      [`PUT /api/notes/${draft.id}`]: () => ({
        status: 409,
        json: { message: 'This record was changed by someone else. Reload to see their changes, then edit again.', code: 'record.stale' },
      }),
      [`GET /api/notes/${draft.id}`]: () => ({ status: 200, json: theirs }),
    });
    const { user } = openForm({ mode: 'edit', note: draft });
    const content = await contentField();
    await user.clear(content);
    await user.type(content, 'My words');
    await user.click(screen.getByRole('button', { name: 'Save Draft' }));

    const stale = await screen.findByTestId('note-stale');
    expect(stale.textContent).toContain('changed by someone else');
    expect(screen.queryByTestId('note-form-error')).toBeNull();
    await screen.findByText('Failed to update note');

    await user.click(within(stale).getByRole('button', { name: 'Reload note' }));
    await waitFor(() => expect((screen.getByLabelText(/^Content/) as HTMLTextAreaElement).value).toBe('Their words'));
    expect(screen.queryByTestId('note-stale')).toBeNull();

    // The next save carries the version read again, and only what the user changes after it.
    await user.type(screen.getByLabelText(/^Content/), ' and mine');
    await user.click(screen.getByRole('button', { name: 'Save Draft' }));
    await waitFor(() => expect(api.writes()).toHaveLength(2));
    expect(api.writes()[1]!.body).toEqual({ updatedAt: theirs.updatedAt, content: 'Their words and mine' });
  });

  it('removing a kept attachment sends the list without it', async () => {
    const files = [
      { objectPath: '/api/objects/00000000-0000-4000-8000-0000000000f1', fileName: 'vitals.pdf', size: 4000, contentType: 'application/pdf' },
      { objectPath: '/api/objects/00000000-0000-4000-8000-0000000000f2', fileName: 'scan.png', size: 8000, contentType: 'image/png' },
    ];
    const draft = note({ attachments: files.map((file) => file.objectPath), attachmentFiles: files });
    const api = fakeApi({ [`PUT /api/notes/${draft.id}`]: () => ({ status: 200, json: draft }) });
    const { user } = openForm({ mode: 'edit', note: draft });
    await contentField();
    expect(screen.getByTestId('attachment-count').textContent).toBe('2 of 5');
    await user.click(screen.getByRole('button', { name: 'Remove vitals.pdf' }));
    expect(screen.getByTestId('attachment-count').textContent).toBe('1 of 5');
    await user.click(screen.getByRole('button', { name: 'Save Draft' }));

    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]!.body).toEqual({ updatedAt: draft.updatedAt, attachments: [files[1]!.objectPath] });
  });

  it("asks before an admin's 'Save Draft' undoes a scribe's review, and sends nothing unless she confirms", async () => {
    const reviewed = note({ status: 'reviewed_by_scribe', scribeId: SCRIBE_ID, scribeName: 'Sam Reyes', reviewedAt: '2026-03-04T10:00:00.000Z' });
    const api = fakeApi({ [`PUT /api/notes/${reviewed.id}`]: () => ({ status: 200, json: { ...reviewed, status: 'draft', reviewedAt: null } }) });
    const { user } = openForm({ mode: 'edit', note: reviewed }, ADMIN);
    await contentField();
    await user.click(screen.getByRole('button', { name: 'Save Draft' }));
    const question = await screen.findByRole('dialog', { name: 'Undo the review?' });
    expect(question.textContent).toContain("undoes Sam Reyes's review");
    expect(question.textContent).toContain('Its history keeps the review');
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(api.writes()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Save Draft' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Undo the review?' })).getByRole('button', { name: 'Undo review and save draft' }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]!.body).toEqual({ updatedAt: reviewed.updatedAt, status: 'draft' });
  });

  it("asks nothing when 'Save Draft' keeps a draft a draft", async () => {
    const draft = note();
    const api = fakeApi({ [`PUT /api/notes/${draft.id}`]: () => ({ status: 200, json: draft }) });
    const { user } = openForm({ mode: 'edit', note: draft });
    await user.type(await contentField(), '!');
    await user.click(screen.getByRole('button', { name: 'Save Draft' }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(screen.queryByRole('dialog', { name: /Undo|Take the note/ })).toBeNull();
  });

  it('offers no action on a note past the stage this user edits, and shows her allergy banner', async () => {
    const allergySummary = {
      state: 'listed' as const,
      allergies: [{ name: 'Penicillins', criticality: 'high' as const, reactions: ['Anaphylaxis'], confirmed: true }],
      statement: null,
    };
    fakeApi({ [`GET /api/patients/${PATIENT_ID}`]: () => ({ status: 200, json: patient({ allergySummary }) }) });
    openForm({ mode: 'edit', note: note({ status: 'reviewed_by_scribe' }) });
    await contentField();
    expect(screen.getByRole('alert').textContent).toContain('can no longer be edited here');
    // The fixed patient's banner, from her record: red for a high-criticality allergy.
    const banner = await screen.findByTestId('allergy-banner');
    expect([banner.dataset.tone, banner.textContent]).toEqual(['high', 'Allergies: PenicillinsHIGH: Anaphylaxis']);
    expect(screen.queryByRole('button', { name: 'Save Draft' })).toBeNull();
    expect((screen.getByLabelText(/^Content/) as HTMLTextAreaElement).disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });
});
