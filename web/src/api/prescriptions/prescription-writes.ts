import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TCheckPrescription,
  TCreatePrescription,
  TMovePrescription,
  TPrescription,
  TPrescriptionAlert,
  TReplaceKind,
  TSignPrescription,
  TUpdatePrescription,
} from '#domain/prescriptions';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateAppointments } from '../appointments/appointments.ts';
import { invalidatePatientChart } from '../chart/chart.ts';
import { invalidatePrescriptions } from './prescription-keys.ts';
import { setPrescription } from './prescriptions.ts';

const rxUrl = (id: string, action = '') => `/api/prescriptions/${encodeURIComponent(id)}${action}`;
const asPrescription = async (response: Response) => (await response.json()) as TPrescription;

/**
 * One hook per call. The answer is shown at once; refused or not, the lists are read again
 * (someone else may have changed it first), and her chart (signing and ending move her
 * medication list), and a visit's count of its prescriptions.
 */
function usePrescriptionWrite<A>(call: (args: A) => Promise<TPrescription>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (rx) => {
      setPrescription(client, rx);
      void invalidatePatientChart(client, rx.patientId);
      if (rx.appointmentId) void invalidateAppointments(client);
    },
    onSettled: () => void invalidatePrescriptions(client),
  });
}

/** POST /api/prescriptions: a draft; its prescriber (the writer when she prescribes) is asked to sign. */
export const useCreatePrescription = () =>
  usePrescriptionWrite(async (body: TCreatePrescription) => asPrescription(await apiRequest('POST', '/api/prescriptions', body)));

/** PUT /api/prescriptions/:id: a draft rewritten whole, with the updatedAt read (409 record.stale over another's change). */
export const useUpdatePrescription = () =>
  usePrescriptionWrite(async ({ id, body }: { id: string; body: TUpdatePrescription }) => asPrescription(await apiRequest('PUT', rxUrl(id), body)));

/** POST /api/prescriptions/:id/sign: the overrides of its high alerts, and a fresh proof for a controlled substance. */
export const useSignPrescription = () =>
  usePrescriptionWrite(async ({ id, body }: { id: string; body: TSignPrescription }) => asPrescription(await apiRequest('POST', rxUrl(id, '/sign'), body)));

/** PUT /api/prescriptions/:id/status: completed, discontinued, entered in error, or a draft discarded. */
export const useMovePrescription = () =>
  usePrescriptionWrite(async ({ id, body }: { id: string; body: TMovePrescription }) => asPrescription(await apiRequest('PUT', rxUrl(id, '/status'), body)));

/** POST /api/prescriptions/:id/replace: a new draft renewing or changing one in force. */
export const useReplacePrescription = () =>
  usePrescriptionWrite(async ({ id, kind }: { id: string; kind: TReplaceKind }) => asPrescription(await apiRequest('POST', rxUrl(id, '/replace'), { kind })));

/**
 * POST /api/prescriptions/:id/print: the PDF (the first print makes it active; a reprint is a
 * copy). A POST, as it changes the prescription: the browser is handed the file it answered.
 */
export function usePrintPrescription() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id }: { id: string; number: string }) => (await apiRequest('POST', rxUrl(id, '/print'))).blob(),
    onSuccess: (pdf, { number }) => {
      const href = URL.createObjectURL(pdf);
      const link = Object.assign(document.createElement('a'), { href, download: `${number}.pdf` });
      link.click();
      // After the click has been handled: revoking at once can cancel the download in some browsers.
      setTimeout(() => URL.revokeObjectURL(href), 60_000);
    },
    onSettled: () => void invalidatePrescriptions(client),
  });
}

/**
 * POST /api/prescriptions/check: the alerts of what is being written, against her chart as it is
 * now (saves nothing). Read again as the drug or the sig changes; the last answer stays shown
 * while the next is on its way.
 */
export function usePrescriptionChecks(body: TCheckPrescription | null) {
  return useQuery({
    queryKey: ['/api/prescriptions/check', body] as const,
    queryFn: async ({ signal }) =>
      ((await (await apiRequest('POST', '/api/prescriptions/check', body, { signal })).json()) as { alerts: TPrescriptionAlert[] }).alerts,
    enabled: body !== null,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
