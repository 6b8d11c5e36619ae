import { z } from 'zod';
import { ROLES, type TRole } from './roles.ts';
import { lineString } from './text.ts';

/**
 * Second factors (issue 33; docs/decisions/second-factor.md): TOTP apps, passkeys and security
 * keys, and single-use recovery codes; a policy per role; the sign-in's second step.
 */
export const FACTOR_KINDS = ['totp', 'webauthn'] as const;
export type TFactorKind = (typeof FACTOR_KINDS)[number];

export const RECOVERY_CODE_COUNT = 10;
/** 16 characters of Crockford base32 in four groups: 80 random bits. */
export const RECOVERY_CODE_SHAPE = /^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/;
/** How a typed recovery code is compared: case, spaces and dashes do not matter. */
export const normalizeRecoveryCode = (code: string): string => {
  const bare = code.toLowerCase().replace(/[\s-]/g, '');
  return bare.length === 16 ? bare.match(/.{4}/g)!.join('-') : bare;
};

export const POLICY_MODES = ['off', 'optional', 'required'] as const;
export const GRACE_DAYS_MAX = 90;

export const ZRolePolicy = z
  .object({
    mode: z.enum(POLICY_MODES, { error: 'Must be off, optional or required' }),
    graceDays: z
      .number({ error: 'Must be a whole number of days' })
      .int('Must be a whole number of days')
      .min(0, 'At least 0 days')
      .max(GRACE_DAYS_MAX, `At most ${GRACE_DAYS_MAX} days`),
  })
  .strict();
export type TRolePolicy = z.infer<typeof ZRolePolicy>;

/** PUT /api/admin/settings/second-factor: every role's policy. */
export const ZSecondFactorPolicy = z.object(Object.fromEntries(ROLES.map((role) => [role, ZRolePolicy])) as Record<TRole, typeof ZRolePolicy>).strict();
export type TSecondFactorPolicy = z.infer<typeof ZSecondFactorPolicy>;

/** As stored and answered: each role's policy, and since when it has been required (the grace counts from then). */
export const ZStoredRolePolicy = ZRolePolicy.extend({ requiredSince: z.string().nullable() });
export type TStoredRolePolicy = z.infer<typeof ZStoredRolePolicy>;
export const ZStoredSecondFactorPolicy = z.object(
  Object.fromEntries(ROLES.map((role) => [role, ZStoredRolePolicy])) as Record<TRole, typeof ZStoredRolePolicy>,
);
export type TStoredSecondFactorPolicy = z.infer<typeof ZStoredSecondFactorPolicy>;

/** Admins required (their accounts open everything), everyone else offered it; a week to enrol. */
export const DEFAULT_ROLE_POLICY: Record<TRole, TRolePolicy> = {
  admin: { mode: 'required', graceDays: 7 },
  scheduler: { mode: 'optional', graceDays: 7 },
  nurse: { mode: 'optional', graceDays: 7 },
  scribe: { mode: 'optional', graceDays: 7 },
  supplier: { mode: 'optional', graceDays: 7 },
};

/** Offered to every role, required of none: the demo clinic's policy (its password is published anyway). */
export const everyRoleOptional = (): TStoredSecondFactorPolicy =>
  Object.fromEntries(ROLES.map((role) => [role, { mode: 'optional', graceDays: 7, requiredSince: null }])) as TStoredSecondFactorPolicy;

/**
 * Where a user stands: 'enrolled' (has a factor), 'off' (her role does not use them),
 * 'optional', 'due' (required, before the deadline) or 'overdue' (required, past it: she may do
 * nothing but enrol).
 */
export const ENROLMENT_STATUSES = ['enrolled', 'off', 'optional', 'due', 'overdue'] as const;
export const ZEnrolment = z.object({ status: z.enum(ENROLMENT_STATUSES), deadline: z.string().nullable() });
export type TEnrolment = z.infer<typeof ZEnrolment>;

const DAY_MS = 86_400_000;

/**
 * The one rule of enrolment. The grace counts from when the role's policy became required, or
 * from the account's creation when that is later: a new colleague gets her own week.
 * A session whose identity provider proved a second factor (`amr`) is never held to enrol.
 */
export function enrolmentOf(policy: TStoredRolePolicy, user: { hasFactor: boolean; createdAt: Date }, now: Date): TEnrolment {
  if (user.hasFactor) return { status: 'enrolled', deadline: null };
  if (policy.mode !== 'required') return { status: policy.mode, deadline: null };
  const since = Math.max(policy.requiredSince ? Date.parse(policy.requiredSince) : 0, user.createdAt.getTime());
  const deadline = new Date(since + policy.graceDays * DAY_MS);
  return { status: now < deadline ? 'due' : 'overdue', deadline: deadline.toISOString() };
}

/** A factor as its owner sees it: never its secret or key. */
export const ZFactor = z.object({ id: z.uuid(), kind: z.enum(FACTOR_KINDS), label: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() });
export type TFactor = z.infer<typeof ZFactor>;

/** GET /api/auth/factors: the user's factors, recovery codes left, and where she stands. */
export const ZMyFactors = z.object({ factors: z.array(ZFactor), recoveryCodesLeft: z.number().int(), enrolment: ZEnrolment });
export type TMyFactors = z.infer<typeof ZMyFactors>;

const ZTotpCode = z
  .string({ error: 'Enter the 6-digit code' })
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code');
const ZRecoveryCode = z
  .string({ error: 'Enter a recovery code' })
  .trim()
  .max(40)
  .transform(normalizeRecoveryCode)
  .refine((code) => RECOVERY_CODE_SHAPE.test(code), 'Enter a recovery code as it was given (xxxx-xxxx-xxxx-xxxx)');

/**
 * A fresh proof of a second factor: the sign-in's second step, and what sensitive actions ask
 * for again (resetting someone's factors, removing one's own, new recovery codes).
 */
const b64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'Must be base64url');
const ZTransports = z.array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])).max(8);

/** A passkey's or security key's answer to a sign-in challenge (WebAuthn AuthenticationResponseJSON), bounded. */
export const ZWebauthnAssertion = z.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  response: z.object({ clientDataJSON: b64url(4000), authenticatorData: b64url(4000), signature: b64url(2000), userHandle: b64url(200).optional() }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});
export type TWebauthnAssertion = z.infer<typeof ZWebauthnAssertion>;

/** A new credential's answer to a registration (WebAuthn RegistrationResponseJSON), bounded. */
export const ZWebauthnRegistration = z.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(4000),
    attestationObject: b64url(20000),
    authenticatorData: b64url(4000).optional(),
    transports: ZTransports.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url(2000).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});
export type TWebauthnRegistration = z.infer<typeof ZWebauthnRegistration>;

const ZTotpProof = z.object({ method: z.literal('totp'), code: ZTotpCode }).strict();
const ZRecoveryProof = z.object({ method: z.literal('recovery'), code: ZRecoveryCode }).strict();
/** A typed proof (the forms' part of ZFactorProof). */
export const ZCodeProof = z.discriminatedUnion('method', [ZTotpProof, ZRecoveryProof]);
export type TCodeProof = z.infer<typeof ZCodeProof>;
export const ZFactorProof = z.discriminatedUnion('method', [
  ZTotpProof,
  ZRecoveryProof,
  z.object({ method: z.literal('webauthn'), response: ZWebauthnAssertion }).strict(),
]);
export type TFactorProof = z.infer<typeof ZFactorProof>;

/** POST /api/auth/login when a second factor is needed: 202, no session yet, and how it may be given. */
export const ZSecondFactorNeeded = z.object({ secondFactor: z.object({ methods: z.array(z.enum(['totp', 'webauthn', 'recovery'])) }) });
export type TSecondFactorNeeded = z.infer<typeof ZSecondFactorNeeded>;

/** POST /api/auth/factors/totp: a new authenticator to add, pending its first code. */
export const ZTotpSetup = z.object({
  factorId: z.uuid(),
  /** Base32, for typing into an app that cannot scan. */
  secret: z.string(),
  /** otpauth:// URI, what the QR code holds. */
  uri: z.string(),
  /** The QR code as SVG markup. */
  qrSvg: z.string(),
});
export type TTotpSetup = z.infer<typeof ZTotpSetup>;

export const ZConfirmTotp = z.object({ code: ZTotpCode, label: lineString().trim().max(60).optional() }).strict();
export type TConfirmTotp = z.infer<typeof ZConfirmTotp>;

/** POST /api/auth/factors/webauthn and the sign-in's and proofs' WebAuthn options: what the browser passes to navigator.credentials. */
export const ZWebauthnOptions = z.object({ options: z.record(z.string(), z.unknown()) });
export const ZWebauthnSetup = ZWebauthnOptions.extend({ factorId: z.uuid() });
export type TWebauthnSetup = z.infer<typeof ZWebauthnSetup>;

export const ZConfirmWebauthn = z.object({ response: ZWebauthnRegistration, label: lineString().trim().max(60).optional() }).strict();
export type TConfirmWebauthn = z.infer<typeof ZConfirmWebauthn>;

/** Shown once: the first factor's, or a new set's. */
export const ZRecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });

export const ZConfirmedFactor = z.object({ factor: ZFactor, recoveryCodes: z.array(z.string()).nullable() });
export type TConfirmedFactor = z.infer<typeof ZConfirmedFactor>;

/** Bodies that carry only a proof (removing a factor, new recovery codes, resetting someone's factors). */
export const ZWithProof = z.object({ proof: ZFactorProof }).strict();
