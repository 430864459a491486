import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Arg, Ctx, Field, Float, ID, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { callerOf, type Context } from '../../../context';
import { queryRows } from '../../../db/orm-bypass/statements';
import { isUuid } from '../../../limits';
import { DateTimeISOResolver } from '../../../schema/date-time';
import { Requires, superAdminOnly } from '../../../permissions/rules';
import { ARG_DOCS } from '../../../schema/descriptions';
import { EXPORTS_FOLDER } from '../../../jobs/tenant-exports';
import { notifyWork } from '../../../events/work-signals';

@ObjectType({
  description:
    'An export of the whole tenant (docs/operations.md, "Tenant life cycle"): a job the service runs, reporting its progress; the bundle is written on the service\'s machine for an operator to import elsewhere, and stored as one archive its super-admin downloads over HTTP.',
})
export class TenantExportJob {
  @Field(() => ID, { description: 'Id of the export.' })
  id!: string;

  @Field(() => String, { description: 'PENDING, RUNNING, DONE or FAILED.' })
  status!: string;

  @Field(() => Int, { description: 'How far the export has come, 0 to 100.' })
  progress!: number;

  @Field(() => String, {
    nullable: true,
    description: 'What was exported (DONE), or why it failed (FAILED).',
  })
  message!: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      "Where the bundle is on the machine that ran the export (DONE), relative to that service's DATA_DIR (`exports/<tenant id>/<id>`): the folder `bms tenant:import --bundle` takes there.",
  })
  bundle!: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      "Where the tenant's super-admin downloads the bundle over HTTP as one gzip-compressed tar archive (DONE): `GET /api/v1/tenant-exports/{id}/bundle`.",
  })
  downloadUrl!: string | null;

  @Field(() => Float, { nullable: true, description: 'Size of the archive in bytes (DONE).' })
  archiveSize!: number | null;

  @Field(() => String, {
    nullable: true,
    description: "SHA-256 of the archive, hex (DONE): the download's ETag.",
  })
  archiveSha256!: string | null;

  @Field(() => String, { description: 'Who asked for the export (an e-mail address).' })
  requestedBy!: string;

  @Field(() => DateTimeISOResolver, { description: 'When the export was asked for.' })
  created!: Date;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When it ended (DONE or FAILED).' })
  completed!: Date | null;
}

const view = (r: Record<string, any>): TenantExportJob => ({
  id: r.id,
  status: r.status,
  progress: r.progress,
  message: r.message ?? null,
  // Rows written before bundles were named relative to DATA_DIR hold the machine's absolute path,
  // which is not the tenant's to see.
  bundle:
    r.bundle == null
      ? null
      : path.isAbsolute(r.bundle)
        ? path.join(EXPORTS_FOLDER, r.tenant_id, r.id)
        : r.bundle,
  downloadUrl: r.archive_key ? `/api/v1/tenant-exports/${r.id}/bundle` : null,
  archiveSize: r.archive_size == null ? null : Number(r.archive_size),
  archiveSha256: r.archive_sha256 ?? null,
  requestedBy: r.requested_by,
  created: new Date(r.created),
  completed: r.completed ? new Date(r.completed) : null,
});

/** Exports of the whole tenant: they read every record, so they need SUPER_ADMIN. */
@Resolver(() => TenantExportJob)
export class TenantExportResolver {
  @Requires(superAdminOnly)
  @Mutation(() => TenantExportJob, {
    description:
      'Starts an export of the whole tenant (records, history, settings, stored files) as a job; read its progress with tenantExport.',
  })
  async startTenantExport(@Ctx() ctx: Context): Promise<TenantExportJob> {
    const caller = callerOf(ctx);
    const [row] = await queryRows(
      ctx.em,
      `insert into tenant_export (tenant_id, id, requested_by) values ($1, $2, $3) returning *`,
      [caller.tenantId, randomUUID(), caller.email],
    );
    await notifyWork(ctx.em, 'exports');
    return view(row);
  }

  @Requires(superAdminOnly)
  @Query(() => TenantExportJob, {
    nullable: true,
    description: 'One export of the tenant, or null when there is none.',
  })
  async tenantExport(
    @Arg('id', () => ID, { description: ARG_DOCS.id }) id: string,
    @Ctx() ctx: Context,
  ): Promise<TenantExportJob | null> {
    if (!isUuid(id)) return null;
    const [row] = await queryRows(ctx.em, `select * from tenant_export where tenant_id = $1 and id = $2`, [
      callerOf(ctx).tenantId,
      id,
    ]);
    return row ? view(row) : null;
  }
}
