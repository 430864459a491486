import { AuditLogResolver } from './audit-log';
import { recordHistoryResolvers } from './record-history';

export const historyResolvers: Function[] = [AuditLogResolver, ...recordHistoryResolvers];
