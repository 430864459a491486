import type { GroupDef } from '../../family/group';
import { taxPercentages } from './tax-percentages';

/** Groups with the standard family, and other resolvers, of this domain. */
export const financeGroups: GroupDef<any, any, any>[] = [taxPercentages];
export const financeResolvers: Function[] = [];
