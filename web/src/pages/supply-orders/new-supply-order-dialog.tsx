import { lazy, Suspense } from 'react';
import type { TSupplyItem, TSupplyOrder } from '#domain/supplies';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { LoadingBlock } from '../../components/ui/spinner.tsx';

// The form (with the catalogue search) loads when the dialog first opens.
const NewSupplyOrderForm = lazy(async () => ({ default: (await import('./new-supply-order-form.tsx')).NewSupplyOrderForm }));

/** 'New Order' (supplies.order): the dialog holding the order form. */
export function NewSupplyOrderDialog({
  open,
  presetItem,
  onClose,
  onCreated,
}: {
  open: boolean;
  presetItem?: TSupplyItem | undefined;
  onClose: () => void;
  onCreated: (order: TSupplyOrder) => void;
}) {
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      className="max-w-2xl"
      testId="new-supply-order-dialog"
      title="New Supply Order"
      description="Choose a supplier and the items to order. The order is numbered and priced from the catalogue when you place it."
    >
      {open && (
        <Suspense fallback={<LoadingBlock />}>
          <NewSupplyOrderForm presetItem={presetItem} onCancel={onClose} onCreated={onCreated} />
        </Suspense>
      )}
    </FormDialog>
  );
}
