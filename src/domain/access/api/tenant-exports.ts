import path from 'node:path';
import { Arg, Ctx, Field, Float, ID, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { callerOf, type Context } from '../../../context';
import { TenantExport } from '../../../entities/tenant-export';
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

const view = (e: TenantExport): TenantExportJob => ({
  id: e.id,
  status: e.status,
  progress: e.progress,
  message: e.message ?? null,
  // Rows written before bundles were named relative to DATA_DIR hold the machine's absolute path,
  // which is not the tenant's to see.
  bundle:
    e.bundle == null
      ? null
      : path.isAbsolute(e.bundle)
        ? path.join(EXPORTS_FOLDER, e.tenantId, e.id)
        : e.bundle,
  downloadUrl: e.archiveKey ? `/api/v1/tenant-exports/${e.id}/bundle` : null,
  archiveSize: e.archiveSize ?? null,
  archiveSha256: e.archiveSha256 ?? null,
  requestedBy: e.requestedBy,
  created: e.created,
  completed: e.completed ?? null,
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
    const job = ctx.em.create(TenantExport, { tenantId: caller.tenantId, requestedBy: caller.email });
    await ctx.em.flush();
    await notifyWork(ctx.em, 'exports');
    return view(job);
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
    const job = await ctx.em.findOne(TenantExport, { id });
    return job ? view(job) : null;
  }
}
