import { FileSearch } from 'lucide-react';
import type { ReactNode } from 'react';
import type { TCurrentUser } from '#domain/auth';
import { useNotes, type TNoteFilter } from '../../api/notes/notes.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { NoteCard, NoteCardSkeleton, type TNoteCardActions } from './note-card.tsx';

export const NOTE_SKELETON_CARDS = 3;

interface TNoteListProps {
  /** The tab's name, as a heading for screen readers (the cards' headings sit under it). */
  heading: string;
  filter: TNoteFilter;
  user: TCurrentUser;
  timeZone: string;
  actions: TNoteCardActions;
  empty: ReactNode;
  errorTitle: string;
  loadingLabel: string;
}

/**
 * One tab's notes, newest change first, a page at a time: skeleton cards, an error with a retry,
 * the tab's empty text, 'Load more'.
 */
export function NoteList({ heading, ...list }: TNoteListProps) {
  return (
    <section aria-label={heading}>
      <h2 className="sr-only">{heading}</h2>
      <NoteListBody {...list} />
    </section>
  );
}

function NoteListBody({ filter, user, timeZone, actions, empty, errorTitle, loadingLabel }: Omit<TNoteListProps, 'heading'>) {
  const query = useNotes(filter);
  const { data, isPending, isError, error, refetch, isFetchNextPageError } = query;

  if (isPending) {
    return (
      <div>
        <p role="status" className="sr-only">
          {loadingLabel}
        </p>
        <ul className="space-y-3">
          {Array.from({ length: NOTE_SKELETON_CARDS }, (_, i) => (
            <NoteCardSkeleton key={i} />
          ))}
        </ul>
      </div>
    );
  }
  // A failed first page; a failed later page keeps what is shown and offers 'Load more' again.
  if (isError && !isFetchNextPageError) return <ErrorState title={errorTitle} error={error} onRetry={() => void refetch()} />;

  const notes = data.pages.flatMap((page) => page.items);
  const total = data.pages[0]?.total ?? null;
  if (notes.length === 0) {
    return (
      <div
        data-testid="notes-empty"
        className="flex flex-col items-center gap-2 rounded-lg border border-dashed bg-white p-10 text-center text-sm text-slate-600"
      >
        <FileSearch className="size-8 text-slate-400" aria-hidden="true" />
        {empty}
      </div>
    );
  }
  return (
    <div>
      {total !== null && (
        <p className="mb-3 text-sm text-slate-600" data-testid="notes-count">
          {total === notes.length ? `${total} ${total === 1 ? 'note' : 'notes'}` : `${notes.length} of ${total} notes`}
        </p>
      )}
      <ul className="space-y-3" data-testid="note-list">
        {notes.map((note) => (
          <NoteCard key={note.id} note={note} user={user} timeZone={timeZone} actions={actions} />
        ))}
      </ul>
      <LoadMore list={query} failedText="Could not load more notes." size="sm" className="mt-4" />
    </div>
  );
}
