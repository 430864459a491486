import { AuditLogResolver } from './audit-log';

export const historyResolvers: Function[] = [AuditLogResolver];
