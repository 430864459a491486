import type { GroupDef } from '../../family/group';

/** Groups with the standard family, and other resolvers, of this domain. */
export const notificationsGroups: GroupDef<any, any, any>[] = [];
export const notificationsResolvers: Function[] = [];
