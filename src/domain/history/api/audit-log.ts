import { Arg, Ctx, Field, ID, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { stringify } from 'csv-stringify/sync';
import type { Context } from '../../../context';
import { DateTimeISOResolver } from '../../../schema/date-time';
import type { Page } from '../../../schema/page';
import { historyPage, historyRows, type AuditFilter, type HistoryRow } from '../../../history/query';
import { MAX_RETENTION_DAYS, retentionDays, setRetentionDays } from '../../../history/retention';
import { can, Requires } from '../../../permissions/rules';
import { PageArg } from '../../../schema/args';
import { HistoryPage } from '../../../history/history-types';

/** The most rows one CSV export holds; narrow the filter (a time range) for more. */
export const AUDIT_CSV_LIMIT = 10_000;

@InputType('AuditLogFilter', { description: 'What the audit log is narrowed to; every part is optional.' })
export class AuditLogFilter implements AuditFilter {
  @Field(() => String, {
    nullable: true,
    description: 'Only entries of this record type (`Feature`, `Invoice`...); an unknown one is a 400.',
  })
  recordType?: string | null;

  @Field(() => ID, { nullable: true, description: 'Only entries of this record; a malformed id is a 400.' })
  recordId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Only changes made by this user or API key.' })
  actorId?: string | null;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Only entries at or after this time.' })
  from?: Date | null;

  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'Only entries at or before this time; before `from` is a 400.',
  })
  to?: Date | null;
}

@ObjectType('HistorySettings', { description: "The tenant's history settings." })
export class HistorySettings {
  @Field(() => Int, {
    description:
      'Days history entries (and deleted records, for restoring) are kept; older ones are deleted by the retention job.',
  })
  retentionDays!: number;
}

@InputType('HistorySettingsInput', { description: "The tenant's history settings, as sent." })
export class HistorySettingsInput {
  @Field(() => Int, {
    description: `Days to keep history entries and deleted records, 1 to ${MAX_RETENTION_DAYS}.`,
  })
  retentionDays!: number;
}

const CSV_COLUMNS = [
  'occurredAt',
  'type',
  'recordType',
  'recordId',
  'actor',
  'userId',
  'apiKeyId',
  'requestId',
  'description',
  'changes',
] as const;

/** Cells a spreadsheet would run as a formula are prefixed with a quote (as the family's CSV). */
const safe = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

function csvOf(rows: HistoryRow[]): string {
  return stringify(
    rows.map((r) => [
      r.occurredAt.toISOString(),
      r.type,
      r.recordType,
      r.recordId,
      safe(r.actor ?? ''),
      r.userId ?? '',
      r.apiKeyId ?? '',
      safe(r.requestId ?? ''),
      safe(r.description ?? ''),
      // The shape the entry has everywhere else (REST, GraphQL, docs/history.md): [{field, old, new}].
      r.changes.length ? safe(JSON.stringify(r.changes)) : '',
    ]),
    { header: true, columns: [...CSV_COLUMNS], record_delimiter: '\r\n' },
  );
}

/** The tenant-wide audit log: every record's history, under READ_AUDIT_LOG (docs/history.md). */
@Resolver()
export class AuditLogResolver {
  @Requires(can('READ', 'AUDIT_LOG'))
  @Query(() => HistoryPage, {
    description:
      "The tenant's audit log: every change of every record (values before and after, actor, request, time), newest first, paged and filtered.",
  })
  auditLog(
    @Ctx() ctx: Context,
    @Arg('filter', () => AuditLogFilter, { nullable: true, description: 'What to narrow the log to.' })
    filter?: AuditLogFilter,
    @PageArg.number() pageNumber?: number,
    @PageArg.size() pageSize?: number,
  ): Promise<Page<HistoryRow>> {
    return historyPage(ctx.em, filter ?? {}, pageNumber, pageSize);
  }

  @Requires(can('READ', 'AUDIT_LOG'))
  @Query(() => String, {
    description: `The audit log as RFC 4180 CSV, newest first, at most ${AUDIT_CSV_LIMIT} rows (narrow the filter for more).`,
  })
  async exportAuditLogCsv(
    @Ctx() ctx: Context,
    @Arg('filter', () => AuditLogFilter, { nullable: true, description: 'What to narrow the log to.' })
    filter?: AuditLogFilter,
  ): Promise<string> {
    return csvOf(await historyRows(ctx.em, filter ?? {}, AUDIT_CSV_LIMIT));
  }

  @Requires(can('READ', 'AUDIT_LOG'))
  @Query(() => HistorySettings, { description: "The tenant's history settings (retention)." })
  async historySettings(@Ctx() ctx: Context): Promise<HistorySettings> {
    return { retentionDays: await retentionDays(ctx.em) };
  }

  @Requires(can('UPDATE', 'AUDIT_LOG'))
  @Mutation(() => HistorySettings, { description: "Changes the tenant's history retention." })
  async updateHistorySettings(
    @Ctx() ctx: Context,
    @Arg('input', () => HistorySettingsInput, { description: 'The new settings.' })
    input: HistorySettingsInput,
  ): Promise<HistorySettings> {
    return { retentionDays: await setRetentionDays(ctx.em, input.retentionDays) };
  }
}
