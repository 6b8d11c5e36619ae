import { z } from 'zod';
import { BREAK_GLASS, BREAK_GLASS_DISPOSITIONS, BREAK_GLASS_REASONS } from './record-scope.ts';
import { ZRole } from './roles.ts';
import { ZFactorProof } from './second-factor.ts';
import { textString } from './text.ts';

/** Restricted records and break-glass (issue 33): the API's shapes; the rules are in record-scope.ts. */

const ZMember = z.object({ id: z.uuid(), name: z.string(), role: ZRole });

/** GET/PUT /api/patients/{id}/restriction (admins): whether the record is restricted, and its care team. */
export const ZRestriction = z.object({ restricted: z.boolean(), restrictedAt: z.string().nullable(), careTeam: z.array(ZMember) });
export type TRestriction = z.infer<typeof ZRestriction>;

export const ZSetRestriction = z
  .object({ restricted: z.boolean({ error: 'Must be true or false' }), careTeam: z.array(z.uuid('Invalid user id')).max(50, 'At most 50 people') })
  .strict();
export type TSetRestriction = z.infer<typeof ZSetRestriction>;

/** POST /api/patients/{id}/break-glass: a fresh second factor, a reason, a justification, how long. */
export const ZBreakGlassRequest = z
  .object({
    reason: z.enum(BREAK_GLASS_REASONS, { error: 'Choose a reason' }),
    justification: z
      .string({ error: 'Say why you need the record now' })
      .trim()
      .min(BREAK_GLASS.minJustification, `At least ${BREAK_GLASS.minJustification} characters: say why you need the record now`)
      .max(BREAK_GLASS.maxJustification, `At most ${BREAK_GLASS.maxJustification} characters`),
    minutes: z
      .number({ error: 'Must be a whole number of minutes' })
      .int('Must be a whole number of minutes')
      .min(BREAK_GLASS.minMinutes, `At least ${BREAK_GLASS.minMinutes} minutes`)
      .max(BREAK_GLASS.maxMinutes, `At most ${BREAK_GLASS.maxMinutes} minutes (4 hours)`)
      .default(BREAK_GLASS.defaultMinutes),
    proof: ZFactorProof,
  })
  .strict();
export type TBreakGlassRequest = z.infer<typeof ZBreakGlassRequest>;
export type TBreakGlassRequestInput = z.input<typeof ZBreakGlassRequest>;

/** A break-glass grant as its holder and the review queue see it. */
export const ZBreakGlassGrant = z.object({
  id: z.uuid(),
  patientId: z.uuid(),
  /** 'Patient #' and the id's last four: the queue does not name her. */
  patientRef: z.string(),
  user: ZMember,
  reason: z.enum(BREAK_GLASS_REASONS),
  justification: z.string(),
  startedAt: z.string(),
  expiresAt: z.string(),
  reviewedAt: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  disposition: z.enum(BREAK_GLASS_DISPOSITIONS).nullable(),
  reviewNote: z.string().nullable(),
  /** Accesses recorded under the grant (audit rows tagged with it). */
  accesses: z.number().int(),
});
export type TBreakGlassGrant = z.infer<typeof ZBreakGlassGrant>;
export const ZBreakGlassGrants = z.array(ZBreakGlassGrant);

export const ZBreakGlassQueueQuery = z.object({ status: z.enum(['open', 'closed', 'all']).default('open') }).strict();

/**
 * Why an admin may not close a use of break-glass yet (issue 47), or null when she may: a use is
 * reviewed once it has ended (what it was used for is all in the trail by then), and by an admin
 * other than the one who used it. A clinic with one admin sees her own use stay open, saying why.
 */
export type TBreakGlassReviewHold = 'running' | 'own';
export function breakGlassReviewHold(grant: Pick<TBreakGlassGrant, 'expiresAt' | 'user'>, reviewerId: string, now: Date): TBreakGlassReviewHold | null {
  if (grant.user.id === reviewerId) return 'own';
  return Date.parse(grant.expiresAt) > now.getTime() ? 'running' : null;
}
export const BREAK_GLASS_HOLD_TEXT: Record<TBreakGlassReviewHold, string> = {
  own: 'Your own emergency access is reviewed by another admin.',
  running: 'Still running: review it once it has ended.',
};

/** PUT /api/admin/break-glass/{id}: the review's disposition. */
export const ZBreakGlassReview = z
  .object({
    disposition: z.enum(BREAK_GLASS_DISPOSITIONS, { error: 'Choose appropriate, inappropriate or follow-up' }),
    note: textString().trim().max(2000).optional(),
  })
  .strict();
export type TBreakGlassReview = z.infer<typeof ZBreakGlassReview>;
