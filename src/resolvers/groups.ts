import type { GroupDef } from '../family/group';
import { accessGroups } from '../domain/access/api';
import { configuratorGroups } from '../domain/configurator/api';
import { crmGroups } from '../domain/crm/api';
import { financeGroups } from '../domain/finance/api';
import { hrGroups } from '../domain/hr/api';
import { inventoryGroups } from '../domain/inventory/api';
import { notificationsGroups } from '../domain/notifications/api';
import { referenceGroups } from '../domain/reference/api/groups';

/** Every resource group that has the standard family. */
export const groups: GroupDef<any, any, any>[] = [
  ...referenceGroups,
  ...accessGroups,
  ...configuratorGroups,
  ...financeGroups,
  ...hrGroups,
  ...crmGroups,
  ...inventoryGroups,
  ...notificationsGroups,
];
