import type { GroupDef } from '../family/group';
import { accessGroups } from './access';
import { configuratorGroups } from './configurator';
import { crmGroups } from './crm';
import { financeGroups } from './finance';
import { hrGroups } from './hr';
import { inventoryGroups } from './inventory';
import { notificationsGroups } from './notifications';
import { referenceGroups } from './reference/groups';

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
