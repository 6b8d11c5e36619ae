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
