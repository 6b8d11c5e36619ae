import { NoAccess } from '../../components/no-access.tsx';
import { SupplyOrdersHeader } from './supply-orders-header.tsx';

/** /supply-orders for a role without supply orders (a scribe): said plainly, no API call. */
export function NoSupplyAccess() {
  return (
    <NoAccess header={<SupplyOrdersHeader />} testId="supply-orders-no-access" title="You have no access to supply orders">
      Your role does not include ordering supplies or keeping stock. Ask your clinic administrator if you need them for your work.
    </NoAccess>
  );
}
