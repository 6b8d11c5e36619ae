import { z } from 'zod';
import type { TLabFlag } from './lab-flags.ts';
import { pageQuery } from './paging.ts';
import { lineString, requiredLine, requiredText } from './text.ts';

/**
 * Results that arrive from a lab by themselves (issue 54; docs/decisions/lab-interfaces.md): HL7
 * v2 ORU^R01 over MLLP. Each message is kept whole; one that matches its orders and patient is
 * filed as typed results are, and any other waits in the unmatched-results queue for a person.
 * The tables here turn the lab's codes into the app's: one row per code, nothing guessed.
 */

/**
 * The number in a placer number a lab sent back (L000123, l123, 123); null when it is not one.
 * An order's own is shown as L and six digits or more (labs.queries.ts writes it).
 */
export function placerNumberValue(text: string): number | null {
  const m = /^L?0*(\d{1,9})$/i.exec(text.trim());
  return m ? Number(m[1]) : null;
}

/** A lab as its messages name it: MSH-3^MSH-4 (for FHIR, the API client's name). */
export const labSenderName = (m: { sendingApplication: string; sendingFacility: string }) =>
  [m.sendingApplication, m.sendingFacility].filter(Boolean).join('^') || 'unnamed sender';

/** How a result reached the app: typed by staff, or sent by a lab's interface. */
export const LAB_RESULT_SOURCES = ['typed', 'hl7', 'fhir'] as const;
export type TLabResultSource = (typeof LAB_RESULT_SOURCES)[number];
export const LAB_RESULT_SOURCE_LABELS: Record<TLabResultSource, string> = { typed: 'Typed', hl7: 'HL7 interface', fhir: 'FHIR interface' };

/** A result's standing with the lab (FHIR Observation.status): typed results are final. */
export const LAB_RESULT_STATUSES = ['preliminary', 'final', 'corrected'] as const;
export type TLabResultStatus = (typeof LAB_RESULT_STATUSES)[number];

/**
 * OBX-11 (HL7 table 0085), and OBR-25 (table 0123) when an OBX leaves it empty: a status to file
 * the value with, a line that is not a result (skipped, said in the report), or one a person must
 * see before anything is filed (the lab deleting a result, or posting it as the wrong patient's).
 */
export type TObservationStatusRule = { file: TLabResultStatus } | { skip: string } | { hold: string };
export const HL7_RESULT_STATUS: Readonly<Record<string, TObservationStatusRule>> = {
  P: { file: 'preliminary' },
  R: { file: 'preliminary' },
  S: { file: 'preliminary' },
  A: { file: 'preliminary' },
  F: { file: 'final' },
  U: { file: 'final' },
  C: { file: 'corrected' },
  I: { skip: 'specimen in the lab, no result yet' },
  O: { skip: 'order detail, no result' },
  N: { skip: 'not asked' },
  X: { skip: 'result cannot be obtained' },
  D: { hold: 'the lab deletes a result it sent' },
  W: { hold: 'the lab says a result it sent was the wrong patient’s' },
};

/**
 * OBX-8 (HL7 table 0078) as the app's flags. A delta or susceptibility flag says nothing of
 * normality (null: the range decides). Any flag not listed is shown as abnormal ('A'): a code
 * nobody here knows must make a clinician look, never pass as normal.
 */
export const HL7_ABNORMAL_FLAGS: Readonly<Record<string, TLabFlag | null>> = {
  N: 'N',
  L: 'L',
  H: 'H',
  LL: 'LL',
  HH: 'HH',
  LU: 'L',
  HU: 'H',
  '<': 'L',
  '>': 'H',
  A: 'A',
  AA: 'AA',
  U: null,
  D: null,
  B: null,
  W: null,
  S: null,
  R: null,
  I: null,
  MS: null,
  VS: null,
  NEG: null,
  NR: null,
  ND: null,
};
export const hl7Flag = (code: string): TLabFlag | null => {
  const upper = code.trim().toUpperCase();
  if (upper === '') return null;
  return upper in HL7_ABNORMAL_FLAGS ? HL7_ABNORMAL_FLAGS[upper]! : 'A';
};

/** OBX-2 value types the app files; any other holds the message for a person. */
export const HL7_VALUE_TYPES = { NM: 'numeric', SN: 'structured', ST: 'text', TX: 'text', FT: 'text', CE: 'coded', CWE: 'coded', CNE: 'coded' } as const;

/** Where a message stands: filed; waiting for a person; filed or rejected by one; refused on arrival. */
export const LAB_INBOX_STATUSES = ['filed', 'unmatched', 'matched', 'rejected', 'refused'] as const;
export type TLabInboxStatus = (typeof LAB_INBOX_STATUSES)[number];
export const LAB_INBOX_STATUS_LABELS: Record<TLabInboxStatus, string> = {
  filed: 'Filed',
  unmatched: 'Waiting',
  matched: 'Filed by hand',
  rejected: 'Rejected',
  refused: 'Refused',
};

/** The HL7 acknowledgement codes: accepted, error (kept, not filed), rejected (not kept as a result). */
export const HL7_ACK_CODES = ['AA', 'AE', 'AR'] as const;
export type THl7AckCode = (typeof HL7_ACK_CODES)[number];

export const LAB_INBOX_LIMITS = { reason: 500 } as const;
export const LAB_INBOX_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
export const LAB_INBOX_VIEWS = ['waiting', 'all'] as const;
export const ZLabInboxQuery = pageQuery(LAB_INBOX_PAGE)
  .extend({ view: z.enum(LAB_INBOX_VIEWS).default('waiting') })
  .strict();
export type TLabInboxQuery = z.infer<typeof ZLabInboxQuery>;

/** One report (an OBR group) of a message, as the queue shows it. */
export const ZLabInboxGroup = z.object({
  placerNumber: z.string().nullable(),
  testName: z.string(),
  observations: z.number(),
  /** The order it was filed to, once it was. */
  orderId: z.string().uuid().nullable(),
});

export const ZLabInboxItem = z.object({
  id: z.string().uuid(),
  receivedAt: z.string(),
  channel: z.enum(['hl7', 'fhir']),
  sender: z.string(),
  controlId: z.string(),
  messageType: z.string(),
  status: z.enum(LAB_INBOX_STATUSES),
  /** Why it waits, or why it was refused or rejected. */
  problem: z.string().nullable(),
  /** The patient as the message names her (a waiting message's own words; no record is implied). */
  messagePatient: z.string().nullable(),
  messageBirthDate: z.string().nullable(),
  /** The record it was matched to, when it was (names shown only to those who may read it). */
  patientId: z.string().uuid().nullable(),
  groups: z.array(ZLabInboxGroup),
  resolvedAt: z.string().nullable(),
  resolvedByName: z.string().nullable(),
  updatedAt: z.string(),
});
export type TLabInboxItem = z.infer<typeof ZLabInboxItem>;

/** A message read as segments and fields (never as a blob): each field's text as sent, numbered as HL7 numbers them. */
export const ZLabInboxSegment = z.object({ name: z.string(), fields: z.array(z.object({ n: z.number(), value: z.string() })) });
export const ZLabInboxDetail = ZLabInboxItem.extend({ segments: z.array(ZLabInboxSegment), truncated: z.boolean() });
export type TLabInboxDetail = z.infer<typeof ZLabInboxDetail>;

/**
 * POST /api/lab-inbox/{id}/file: each report of a waiting message filed to an order of the
 * clinic, or to a new order for a patient (named after the report's test). One entry per report,
 * in the message's order.
 */
export const ZFileLabInbox = z
  .object({
    groups: z
      .array(
        z.union([z.object({ orderId: z.string().uuid('Choose an order') }).strict(), z.object({ patientId: z.string().uuid('Choose a patient') }).strict()]),
      )
      .min(1, 'Say where each report goes'),
    updatedAt: z.string().optional(),
  })
  .strict();
export type TFileLabInbox = z.infer<typeof ZFileLabInbox>;

/** POST /api/lab-inbox/{id}/reject: a message nobody should file (a duplicate, another clinic's), with why. */
export const ZRejectLabInbox = z.object({ reason: requiredText('Reason', LAB_INBOX_LIMITS.reason), updatedAt: z.string().optional() }).strict();
export type TRejectLabInbox = z.infer<typeof ZRejectLabInbox>;

/**
 * Orders out (issue 54): a lab the clinic sends orders to over MLLP, the message it takes, and
 * its codes for the clinic's tests. A send is queued when an order of a mapped test is placed,
 * retried with backoff while the lab cannot be reached, and failed when the lab refuses it or
 * after the last try (an admin sends it again from the list of failed sends). An order
 * cancelled once the lab may have it is sent again as a cancellation (ORC-1 CA), so the lab
 * does not draw or run it; one cancelled before it left is withdrawn and never sent.
 */
export const LAB_ORDER_MESSAGE_TYPES = ['ORM^O01', 'OML^O21'] as const;
export const LAB_SEND_STATUSES = ['queued', 'acknowledged', 'failed', 'withdrawn'] as const;
export type TLabSendStatus = (typeof LAB_SEND_STATUSES)[number];
export const LAB_SEND_STATUS_LABELS: Record<TLabSendStatus, string> = {
  queued: 'Not sent yet',
  acknowledged: 'Sent to the lab',
  failed: 'Not sent',
  withdrawn: 'Not sent, cancelled before it left',
};
/** HL7 table 0119, ORC-1: what a send asks of the lab, a new order or its cancellation. */
export const LAB_ORDER_CONTROLS = ['NW', 'CA'] as const;
export type TLabOrderControl = (typeof LAB_ORDER_CONTROLS)[number];
export const LAB_ORDER_CONTROL_LABELS: Record<TLabOrderControl, string> = { NW: 'Order', CA: 'Cancellation' };
/** Tries before a send is failed, and the waits between them (seconds, doubling, at most an hour). */
export const LAB_SEND_RETRY = { attempts: 8, firstWaitSeconds: 30, maxWaitSeconds: 3600 } as const;
export const labSendWaitSeconds = (attempts: number) =>
  Math.min(LAB_SEND_RETRY.maxWaitSeconds, LAB_SEND_RETRY.firstWaitSeconds * 2 ** Math.max(0, attempts - 1));

const ZHost = z
  .string({ error: 'Host is required' })
  .trim()
  .min(1, 'Host is required')
  .max(255)
  .regex(/^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:]+\]$/, 'A host name or IP address');
// One line of text a person would type (no control or direction characters), without HL7's own separators.
const ZHl7Name = lineString()
  .trim()
  .max(100)
  .regex(/^[^|^~\\&]*$/, 'Without the characters | ^ ~ \\ &');

/** POST/PUT /api/admin/lab-connections: a lab the clinic sends orders to. */
export const ZSaveLabConnection = z
  .object({
    name: requiredLine('Name', 100),
    host: ZHost,
    port: z.number({ error: 'Port is required' }).int('A whole number').min(1, 'From 1').max(65535, 'At most 65535'),
    messageType: z.enum(LAB_ORDER_MESSAGE_TYPES),
    /** MSH-5 and MSH-6 of what is sent: the lab's application and facility, as it asks. */
    receivingApplication: ZHl7Name,
    receivingFacility: ZHl7Name,
    isActive: z.boolean().default(true),
    /** The lab's code for each test of the catalogue it performs (tests not listed are not sent). */
    codes: z
      .array(z.object({ testId: z.string().uuid(), code: ZHl7Name.min(1, 'Code is required').max(50) }))
      .max(500)
      .default([]),
    updatedAt: z.string().optional(),
  })
  .strict();
export type TSaveLabConnection = z.infer<typeof ZSaveLabConnection>;
export type TSaveLabConnectionInput = z.input<typeof ZSaveLabConnection>;

export const ZLabConnection = z.object({
  id: z.string().uuid(),
  name: z.string(),
  host: z.string(),
  port: z.number(),
  messageType: z.enum(LAB_ORDER_MESSAGE_TYPES),
  receivingApplication: z.string(),
  receivingFacility: z.string(),
  isActive: z.boolean(),
  codes: z.array(z.object({ testId: z.string().uuid(), testName: z.string(), code: z.string() })),
  updatedAt: z.string(),
});
export type TLabConnection = z.infer<typeof ZLabConnection>;

/** An order's send to its lab, as the order and the admin's list show it. */
export const ZLabSend = z.object({
  id: z.string().uuid(),
  orderId: z.string().uuid(),
  orderControl: z.enum(LAB_ORDER_CONTROLS),
  placerNumber: z.string(),
  orderName: z.string(),
  labName: z.string(),
  status: z.enum(LAB_SEND_STATUSES),
  attempts: z.number(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type TLabSend = z.infer<typeof ZLabSend>;

/** The answer of a test send: what the lab answered, or why nothing came back. */
export const ZLabConnectionTest = z.object({ ok: z.boolean(), ackCode: z.string().nullable(), detail: z.string() });
