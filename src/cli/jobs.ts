import type { MikroORM } from '@mikro-orm/core';
import type { Config } from '../config';
import type { JobScheduler } from '../jobs/scheduler';

/**
 * The scheduler over every job a service process runs (the kernel's and the modules'), for the
 * CLI's `jobs` and `jobs:run`: the same declarations and the same `job_run` records, so what it
 * lists is what the service runs, and what it runs is recorded as the service records a run.
 */
export async function schedulerOf(orm: MikroORM, config: Config, secret: string): Promise<JobScheduler> {
  const [
    { appScheduled },
    { kernelJobs },
    { JobScheduler },
    { FileStore },
    { openBackend },
    { createLogger },
  ] = await Promise.all([
    import('../app-modules'),
    import('../jobs/kernel-jobs'),
    import('../jobs/scheduler'),
    import('../domain/files/stored-files'),
    import('../files/backends'),
    import('../logger'),
  ]);
  const files = new FileStore(openBackend(config.files), config.files, secret);
  const jobs = [
    ...kernelJobs({ orm, files, digestIntervalMs: config.events.digestIntervalMs }),
    ...appScheduled,
  ];
  // Warnings (a failed run, with its error) go to stderr; stdout is the command's one JSON value,
  // which says how each run went.
  return new JobScheduler(orm, jobs, createLogger('warn', process.stderr), { files });
}
