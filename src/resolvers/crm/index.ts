import type { GroupDef } from '../../family/group';

/** Groups with the standard family, and other resolvers, of this domain. */
export const crmGroups: GroupDef<any, any, any>[] = [];
export const crmResolvers: Function[] = [];
