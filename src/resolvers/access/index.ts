import type { GroupDef } from '../../family/group';
import { UserResolver } from './users';

/** Users, tenants, tenant roles and access control. */
export const accessGroups: GroupDef<any, any, any>[] = [];
export const accessResolvers: Function[] = [UserResolver];
