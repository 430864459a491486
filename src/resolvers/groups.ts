import type { GroupDef } from '../family/group';
import { concepts } from './configurator/concepts';
import { taxPercentages } from './finance/tax-percentages';
import { referenceGroups } from './reference/groups';

/** Every resource group that has the standard family. */
export const groups: GroupDef<any, any, any>[] = [concepts, taxPercentages, ...referenceGroups];
