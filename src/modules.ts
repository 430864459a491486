import type { MikroORM } from '@mikro-orm/core';
import type { FileStore } from './domain/files/stored-files';
import type { GroupDef } from './family/group';
import type { WriteHook } from './family/write-hooks';
import type { ScheduledJob } from './jobs/job';
import type { Logger } from './logger';
import type { RestRoute } from './rest/route';
import type { TransferRoute } from './http/transfer-route';

/**
 * What a domain gives the application: its registry, `src/domain/<domain>/index.ts`. The app
 * composes the list of them (src/app-modules.ts) into the schema, the REST table and the live
 * hub's groups; the ORM's entity list takes each module's `entities/index.ts` (src/orm-composition.ts),
 * which loads none of its GraphQL. A group added to a module is served by that alone; a job
 * added to it is run by every service process (src/serve.ts starts the composed list).
 */
export interface DomainModule {
  /** The tables it owns: the list its `entities/index.ts` declares. */
  readonly entities: readonly Function[];
  /** Its resource groups with the standard family (src/family/), in the schema's order. */
  readonly groups: readonly GroupDef<any, any, any>[];
  /** Its resolver classes beyond the generated family ones. */
  readonly resolvers: readonly Function[];
  /** Its REST rows (paths below /api/v1). */
  readonly routes: readonly RestRoute[];
  /** Its uploads and downloads: operations on a file's bytes, served by a router of its own. */
  readonly transfers?: readonly TransferRoute[];
  /** Work it runs beside the requests, in every service process. */
  readonly jobs?: readonly ModuleJob[];
  /**
   * Its time-based work: jobs that run once per period (an interval, or a time of day in the
   * tenant's time zone) across every process, recorded and counted (src/jobs/job.ts).
   */
  readonly scheduled?: readonly ScheduledJob<FileStore>[];
  /**
   * What it checks or completes on every record any group writes (create, update, restore),
   * whichever module the group is in (src/family/write-hooks.ts).
   */
  readonly writeHooks?: readonly WriteHook[];
}

/**
 * A module's background work that runs all the time (a queue's worker; what runs on a schedule is
 * `scheduled`). Every service process starts each one, so the work must be shared through its
 * tables (rows claimed with FOR UPDATE SKIP LOCKED), never assume it runs alone.
 */
export interface ModuleJob {
  /** How the logs and docs name it. */
  readonly name: string;
  /** Starts it; `stop` ends it once the work in hand is settled (the process is shutting down). */
  start(orm: MikroORM, logger: Logger, services: ModuleServices): { stop(): Promise<void> };
}

/** What the process gives a module's background work besides the database. */
export interface ModuleServices {
  /** The stored files (an invoice's PDF is one). */
  files: FileStore;
}
