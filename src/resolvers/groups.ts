import type { GroupDef } from '../family/group';
import { accessModule } from '../domain/access';
import { configuratorModule } from '../domain/configurator';
import { crmModule } from '../domain/crm';
import { financeModule } from '../domain/finance';
import { hrModule } from '../domain/hr';
import { inventoryModule } from '../domain/inventory';
import { notificationsModule } from '../domain/notifications';
import { referenceModule } from '../domain/reference';

/** Every resource group that has the standard family. */
export const groups: GroupDef<any, any, any>[] = [
  ...referenceModule.groups,
  ...accessModule.groups,
  ...configuratorModule.groups,
  ...financeModule.groups,
  ...hrModule.groups,
  ...crmModule.groups,
  ...inventoryModule.groups,
  ...notificationsModule.groups,
];
