import { enrolmentOf, type TEnrolment, type TStoredSecondFactorPolicy } from '#domain/second-factor';
import type { SignedInSession } from './session-cache.ts';

/**
 * Where a signed-in session stands with the clinic's second-factor policy (domain rule:
 * enrolmentOf). A session whose identity provider proved a second factor counts as enrolled.
 */
export function enrolmentOfSession(policy: TStoredSecondFactorPolicy, session: SignedInSession, now: Date): TEnrolment {
  const { factor, user } = session;
  return enrolmentOf(policy[user.role], { hasFactor: factor.userHasOne || factor.thisSession === 'provider', createdAt: factor.userCreatedAt }, now);
}

/**
 * Held to enrol: her role requires a second factor, her grace has passed and she has none. Such a
 * session may only enrol: the API refuses it (403), and it gets no live socket, nor keeps one
 * it opened before the hold began (issue 47).
 */
export const heldToEnrol = (policy: TStoredSecondFactorPolicy, session: SignedInSession, now: Date) =>
  enrolmentOfSession(policy, session, now).status === 'overdue';
