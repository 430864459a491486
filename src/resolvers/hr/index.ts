import type { GroupDef } from '../../family/group';

/** Groups with the standard family, and other resolvers, of this domain. */
export const hrGroups: GroupDef<any, any, any>[] = [];
export const hrResolvers: Function[] = [];
