import type { TLabOrderDetail } from '#domain/labs';
import { useLabTests } from '../../api/labs/lab-tests.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { LoadingBlock } from '../../components/ui/spinner.tsx';
import { LabResultsForm } from './lab-results-form.tsx';
import { isCorrection } from './lab-results-values.ts';

/**
 * 'Enter Results' or 'Correct Results': the results form for one order, once the catalogue (the
 * order's test, its analytes and ranges) is read.
 */
export function LabResultsDialog({ order, timeZone, onClose }: { order: TLabOrderDetail; timeZone: string; onClose: () => void }) {
  const tests = useLabTests();
  const correcting = isCorrection(order);
  return (
    <FormDialog
      onClose={onClose}
      className="max-w-3xl"
      testId="lab-results-dialog"
      title={correcting ? 'Correct Results' : 'Enter Results'}
      description={
        <>
          {order.orderName} for {order.patientName}.{' '}
          {correcting
            ? 'Change what was wrong and say why: the earlier values stay in the history, and review opens again.'
            : 'Leave a value blank if it was not resulted.'}
        </>
      }
    >
      {tests.isPending ? (
        <LoadingBlock />
      ) : tests.isError ? (
        <ErrorState title="Could not load the test catalogue" error={tests.error} onRetry={() => void tests.refetch()} />
      ) : (
        <LabResultsForm order={order} test={tests.data.find((test) => test.id === order.testId) ?? null} timeZone={timeZone} onDone={onClose} />
      )}
    </FormDialog>
  );
}
