import type { GroupDef } from '../../family/group';
import { concepts } from './concepts';

/** Groups with the standard family, and other resolvers, of this domain. */
export const configuratorGroups: GroupDef<any, any, any>[] = [concepts];
export const configuratorResolvers: Function[] = [];
