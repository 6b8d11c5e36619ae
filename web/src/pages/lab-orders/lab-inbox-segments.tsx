import { Fragment, useId } from 'react';
import type { TLabInboxDetail } from '#domain/lab-interfaces';
import { cn } from '../../lib/utils.ts';

/** The fields a problem names in HL7's own way ('PID-7', 'OBR-2'): those rows are marked in the table. */
function namedFields(problem: string | null): Set<string> {
  return new Set(problem ? [...problem.matchAll(/\b([A-Z][A-Z0-9]{2})-(\d{1,3})\b/g)].map((m) => `${m[1]}-${m[2]}`) : []);
}

/**
 * The message as the lab sent it, readable: a block per segment (its name and place), a row per
 * field that holds something, numbered as HL7 numbers them (PID-7), the text as sent. The fields
 * the problem names are marked, so the person finds at once what held the message.
 */
export function LabInboxSegments({ message }: { message: Pick<TLabInboxDetail, 'segments' | 'truncated' | 'problem'> }) {
  const headingId = useId();
  const named = namedFields(message.problem);
  return (
    <div className="min-w-0">
      <h3 id={headingId} className="mb-1 text-sm font-semibold text-slate-900">
        The message as sent
      </h3>
      {/* Focusable, so a keyboard scrolls it too. */}
      <div className="max-h-80 overflow-auto rounded-md border bg-slate-50" tabIndex={0} role="region" aria-labelledby={headingId}>
        <table className="w-full border-collapse text-sm" data-testid="lab-inbox-segments">
          <thead className="sticky top-0 z-10 bg-slate-100">
            <tr className="text-left text-xs text-slate-700">
              <th scope="col" className="w-20 px-2 py-1.5 font-medium">
                Field
              </th>
              <th scope="col" className="px-2 py-1.5 font-medium">
                Value
              </th>
            </tr>
          </thead>
          <tbody>
            {message.segments.map((segment, s) => {
              const name = segment.name || `Line ${s + 1}`;
              return (
                <Fragment key={s}>
                  <tr data-testid="lab-inbox-segment" data-segment={segment.name}>
                    <th
                      scope="colgroup"
                      colSpan={2}
                      className="border-t border-slate-300 bg-white px-2 py-1 text-left font-mono text-xs font-bold text-slate-900"
                    >
                      {name}
                    </th>
                  </tr>
                  {segment.fields.map((field) => {
                    const label = segment.name ? `${segment.name}-${field.n}` : name;
                    const marked = named.has(label);
                    return (
                      <tr
                        key={field.n}
                        data-testid="lab-inbox-field"
                        data-field={label}
                        data-marked={marked || undefined}
                        className={cn('border-t border-slate-200 align-top', marked && 'bg-amber-100')}
                      >
                        <th scope="row" className="px-2 py-1 text-left font-mono text-xs font-medium whitespace-nowrap text-slate-700">
                          {label}
                          {marked && <span className="sr-only"> (named by the problem)</span>}
                        </th>
                        <td className="px-2 py-1 font-mono text-xs break-all whitespace-pre-wrap text-slate-900">{field.value}</td>
                      </tr>
                    );
                  })}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      {message.truncated && (
        <p className="mt-1 text-xs text-slate-600" data-testid="lab-inbox-truncated">
          The message is longer than shown here; the whole of it is kept.
        </p>
      )}
    </div>
  );
}
