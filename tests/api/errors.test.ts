import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERRORS, errorCodeOf, ZErrorBody } from '#domain/errors';
import { HttpError } from '../../server/http/errors.ts';
import { errorHandlerPlugin } from '../../server/plugins/error-handler.ts';

/** Each code's status, written out here so a change to the table is a deliberate one. */
const STATUS: Record<string, number> = {
  'auth.unauthenticated': 401,
  'auth.forbidden': 403,
  'auth.secondFactorEnrolment': 403,
  'signIn.invalidCredentials': 401,
  'signIn.deactivated': 403,
  'signIn.throttled': 429,
  'rate.limited': 429,
  'signIn.expired': 400,
  'signIn.providerFailed': 400,
  'signIn.badCode': 401,
  'signIn.noChallenge': 401,
  'secondFactor.noneEnrolled': 409,
  'secondFactor.lastRequired': 409,
  'signIn.noAccount': 403,
  'request.validation': 400,
  'request.malformedJson': 400,
  'request.emptyJson': 400,
  'request.tooDeep': 400,
  'request.invalid': 400,
  'request.tooLarge': 413,
  'request.unsupportedMediaType': 415,
  'request.crossSite': 403,
  'route.notFound': 404,
  'route.methodNotAllowed': 405,
  'request.notAcceptable': 406,
  'record.notFound': 404,
  'record.restricted': 403,
  'record.stale': 409,
  'record.conflict': 409,
  'patient.duplicate': 409,
  'workflow.illegalMove': 409,
  'appointment.conflict': 409,
  'appointment.notNow': 409,
  'supply.notEnoughStock': 409,
  'prescription.noRights': 403,
  'prescription.noDea': 403,
  'prescription.proofRequired': 403,
  'upload.expired': 403,
  'upload.invalid': 403,
  'upload.used': 403,
  'upload.tooLarge': 413,
  'upload.badType': 400,
  'upload.mismatch': 400,
  'upload.cannotSign': 400,
  'upload.badParts': 400,
  'upload.closed': 410,
  'upload.noCredentials': 501,
  'quota.uploadBytes': 429,
  'quota.multipartOpen': 429,
  'chat.noPatientAccess': 409,
  'user.emailTaken': 409,
  'user.lastAdmin': 409,
  'user.self': 409,
  'user.notSetUp': 409,
  'user.demoAccount': 409,
  'link.invalid': 404,
  'link.expired': 410,
  'link.used': 410,
  'live.invalidMessage': 400,
  'live.notYourUser': 403,
  'live.notYourRoom': 403,
  'live.tooManySockets': 429,
  'search.timeout': 503,
  'report.timeout': 503,
  'bulk.busy': 429,
  'bulk.failed': 500,
  'oauth.invalidClient': 401,
  'oauth.invalidRequest': 400,
  'oauth.invalidScope': 400,
  'oauth.unsupportedGrantType': 400,
  'oauth.insufficientScope': 403,
  'apiClient.revoked': 409,
  'breakGlass.ownUse': 403,
  'breakGlass.running': 409,
  'server.storage': 503,
  'audit.nothingSealed': 409,
  'backup.notHere': 409,
  'backup.notScheduled': 409,
  'backup.failed': 503,
  'server.internal': 500,
  'server.unavailable': 503,
  'server.busy': 503,
};

describe('the error table', () => {
  it('gives every code the status listed here', () => {
    expect(Object.fromEntries(ERROR_CODES.map((code) => [code, ERRORS[code].status]))).toEqual(STATUS);
  });

  it('keeps the texts the contract fixes', () => {
    expect(ERRORS['auth.unauthenticated'].message).toBe('Unauthorized');
    expect(ERRORS['signIn.invalidCredentials'].message).toBe('Invalid email or password');
  });

  it('sends each code with its status and a {message, code} body through the error handler', async () => {
    const app = Fastify();
    await app.register(errorHandlerPlugin);
    app.get('/fail/:code', async (request) => {
      throw new HttpError((request.params as { code: keyof typeof ERRORS }).code);
    });
    for (const code of ERROR_CODES) {
      const res = await app.inject({ method: 'GET', url: `/fail/${code}` });
      expect(res.statusCode, code).toBe(STATUS[code]);
      expect(res.json(), code).toEqual({ message: ERRORS[code].message, code });
      expect(ZErrorBody.safeParse(res.json()).success).toBe(true);
      expect(errorCodeOf(res.json())).toBe(code);
    }
    await app.close();
  });

  it('reads no code from a body that is not one of ours', () => {
    expect(errorCodeOf({ message: 'x', code: 'made.up' })).toBeNull();
    expect(errorCodeOf('<html>')).toBeNull();
  });
});
