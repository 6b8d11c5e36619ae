import { findMove, moveDecision, type TMove, type TWorkflow } from '#domain/workflows';
import type { TRole } from '#domain/roles';
import { forbidden, HttpError } from '../http/errors.ts';

/** 'An appointment', 'A note': the workflow's record as a sentence's subject. */
const subjectOf = (name: string) => `${/^[aeiou]/i.test(name) ? 'An' : 'A'} ${name.replace(/_/g, ' ')}`;

/**
 * The one place the server turns the workflow table's decision into an answer: the move, or a
 * 409 for a move the machine does not have, or a 403 for one this user may not make (her role,
 * or a record not hers where the move is own-only). Every area with a workflow calls this.
 */
export function decideMove<S extends string, F extends string>(
  workflow: TWorkflow<S, F>,
  user: { id: string; role: TRole },
  from: S,
  to: S,
  record?: Record<string, unknown>,
): TMove<S, F> {
  const decision = moveDecision(workflow, user, from, to, record);
  if (decision === 'illegal') {
    throw new HttpError('workflow.illegalMove', { message: `${subjectOf(workflow.name)} cannot go from ${from} to ${to}` });
  }
  if (decision === 'forbidden') throw forbidden();
  return findMove(workflow, from, to)!;
}
