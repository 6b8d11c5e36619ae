import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZCurrentUser } from '#domain/auth';
import { ZErrorBody } from '#domain/errors';
import {
  ZConfirmedFactor,
  ZConfirmTotp,
  ZConfirmWebauthn,
  ZFactorProof,
  ZMyFactors,
  ZRecoveryCodes,
  ZStoredSecondFactorPolicy,
  ZSecondFactorPolicy,
  ZTotpSetup,
  ZWebauthnOptions,
  ZWebauthnSetup,
  ZWithProof,
} from '#domain/second-factor';
import type { Deps } from '../../deps.ts';
import { CHALLENGE_COOKIE, clearChallengeCookie, setSessionCookie } from '../../http/cookies.ts';
import { errorResponses } from '../../http/error-body.ts';
import { contextOf, visitorContextOf } from '../../http/request-context.ts';
import {
  beginTotp,
  beginWebauthn,
  confirmTotp,
  confirmWebauthn,
  finishSecondStep,
  myFactors,
  removeFactor,
  renewRecoveryCodes,
  startWebauthnProof,
  webauthnSignInOptions,
} from './second-factor.service.ts';
import { resetUserFactors, secondFactorPolicyOfClinic, updateSecondFactorPolicy } from './second-factor-admin.service.ts';

const ZFactorParams = z.object({ id: z.uuid('Invalid factor id') });
const ZUserParams = z.object({ id: z.uuid('Invalid user id') });

/** Second factors (issue 33): the sign-in's second step, each user's own factors, and the admin's policy and resets. */
export const secondFactorRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.post(
    '/api/auth/second-factor',
    {
      config: { access: 'public' },
      schema: {
        description:
          "The sign-in's second step: a code from the authenticator app, a passkey's answer, or a recovery code, for the sign-in the challenge cookie names. 200 with the user and a session cookie.",
        body: ZFactorProof,
        response: { 200: ZCurrentUser, ...errorResponses, 429: ZErrorBody },
      },
    },
    async (request, reply) => {
      const { user, token } = await finishSecondStep(deps, visitorContextOf(request), request.cookies[CHALLENGE_COOKIE], request.body);
      clearChallengeCookie(reply);
      setSessionCookie(reply, request, deps.config, token);
      return user;
    },
  );

  app.post(
    '/api/auth/second-factor/webauthn',
    {
      config: { access: 'public' },
      schema: {
        description:
          "Options for the sign-in's second step with a passkey or security key (navigator.credentials.get), for the sign-in the challenge cookie names.",
        response: { 200: ZWebauthnOptions, ...errorResponses },
      },
    },
    async (request) => ({ options: await webauthnSignInOptions(deps, visitorContextOf(request), request.cookies[CHALLENGE_COOKIE]) }),
  );

  app.post(
    '/api/auth/factors/webauthn',
    {
      config: { access: 'signedIn', duringEnrolment: true },
      schema: {
        description:
          'Starts adding a passkey or security key: the options for navigator.credentials.create, pending the answer. A user who has a factor already proves one first.',
        body: z.object({ proof: ZFactorProof.optional() }).strict(),
        response: { 200: ZWebauthnSetup, ...errorResponses, 429: ZErrorBody },
      },
    },
    async (request) => beginWebauthn(deps, contextOf(request), request.body.proof),
  );

  app.post(
    '/api/auth/factors/webauthn/:id/confirm',
    {
      config: { access: 'signedIn', duringEnrolment: true },
      schema: {
        description:
          "Confirms a passkey or security key with the browser's answer. The user's first factor also answers her ten recovery codes, shown this once.",
        params: ZFactorParams,
        body: ZConfirmWebauthn,
        response: { 200: ZConfirmedFactor, ...errorResponses },
      },
    },
    async (request) => confirmWebauthn(deps, contextOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/auth/proof/webauthn',
    {
      config: { access: 'signedIn', duringEnrolment: true },
      schema: {
        description: 'Options for a fresh proof with a passkey or security key, before a sensitive action (its answer goes in that action as proof).',
        response: { 200: ZWebauthnOptions, ...errorResponses },
      },
    },
    async (request) => ({ options: await startWebauthnProof(deps, contextOf(request)) }),
  );

  app.get(
    '/api/auth/factors',
    {
      config: { access: 'signedIn', duringEnrolment: true },
      schema: {
        description: "The signed-in user's own second factors, recovery codes left, and where she stands with the policy.",
        response: { 200: ZMyFactors, ...errorResponses },
      },
    },
    async (request) => myFactors(deps, request.signedIn!),
  );

  app.post(
    '/api/auth/factors/totp',
    {
      config: { access: 'signedIn', duringEnrolment: true },
      schema: {
        description:
          'Starts adding an authenticator app: its secret, as text and as a QR code, pending its first code. A user who has a factor already proves one first.',
        body: z.object({ proof: ZFactorProof.optional() }).strict(),
        response: { 200: ZTotpSetup, ...errorResponses, 429: ZErrorBody },
      },
    },
    async (request) => beginTotp(deps, contextOf(request), request.body.proof),
  );

  app.post(
    '/api/auth/factors/totp/:id/confirm',
    {
      config: { access: 'signedIn', duringEnrolment: true },
      schema: {
        description: "Confirms an authenticator app with its first code. The user's first factor also answers her ten recovery codes, shown this once.",
        params: ZFactorParams,
        body: ZConfirmTotp,
        response: { 200: ZConfirmedFactor, ...errorResponses },
      },
    },
    async (request) => confirmTotp(deps, contextOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/auth/factors/:id/remove',
    {
      config: { access: 'signedIn' },
      schema: {
        description: "Removes one of the user's own factors, after a fresh second factor; the last one stays while her role requires one.",
        params: ZFactorParams,
        body: ZWithProof,
        response: { 204: z.null(), ...errorResponses, 429: ZErrorBody },
      },
    },
    async (request, reply) => {
      await removeFactor(deps, contextOf(request), request.params.id, request.body.proof);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/auth/recovery-codes',
    {
      config: { access: 'signedIn', duringEnrolment: true },
      schema: {
        description: 'Ten new recovery codes, after a fresh second factor; the old ones stop working.',
        body: ZWithProof,
        response: { 200: ZRecoveryCodes, ...errorResponses, 429: ZErrorBody },
      },
    },
    async (request) => ({ recoveryCodes: await renewRecoveryCodes(deps, contextOf(request), request.body.proof) }),
  );

  app.get(
    '/api/admin/settings/second-factor',
    {
      config: { access: 'settings.manage', audit: { action: 'settings.read', entityType: 'clinic_settings' } },
      schema: {
        description: 'The second-factor policy of each role, and since when it has been required.',
        response: { 200: ZStoredSecondFactorPolicy, ...errorResponses },
      },
    },
    async () => secondFactorPolicyOfClinic(deps),
  );

  app.put(
    '/api/admin/settings/second-factor',
    {
      config: { access: 'settings.manage', audit: { action: 'settings.second_factor_policy', entityType: 'clinic_settings' } },
      schema: {
        description: "Sets each role's policy: off, optional, or required with days of grace to enrol (counted from now for a role newly required).",
        body: ZSecondFactorPolicy,
        response: { 200: ZStoredSecondFactorPolicy, ...errorResponses },
      },
    },
    async (request) => updateSecondFactorPolicy(deps, contextOf(request), request.body),
  );

  app.post(
    '/api/admin/users/:id/factors/reset',
    {
      config: { access: 'users.manage', audit: { action: 'user.factors_reset', entityType: 'user' } },
      schema: {
        description:
          "Removes another user's second factors and recovery codes and ends her sessions, after a fresh second factor of the admin's own. The user is told.",
        params: ZUserParams,
        body: ZWithProof,
        response: { 204: z.null(), ...errorResponses, 429: ZErrorBody },
      },
    },
    async (request, reply) => {
      await resetUserFactors(deps, contextOf(request), request.params.id, request.body.proof);
      return reply.code(204).send(null);
    },
  );
};
