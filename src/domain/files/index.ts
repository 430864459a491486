import type { DomainModule } from '../../modules';
import { fileResolvers } from './api/files';
import { fileRoutes, fileTransfers } from './api/rest';
import { fileEntities } from './entities';
import { fileCleanupJob, startFileJobs } from './file-jobs';
import { checkFileRefs } from './references';

/**
 * Stored files: their records and limits, the store that uploads, reads and deletes them
 * (stored-files.ts, over the backends of src/files/), their GraphQL and REST operations and
 * HTTP routes (api/), the thumbnails and the clean-up, and the check of the files every record
 * write names.
 */
export const filesModule: DomainModule = {
  entities: fileEntities,
  groups: [],
  resolvers: fileResolvers,
  routes: fileRoutes,
  transfers: fileTransfers,
  writeHooks: [checkFileRefs],
  scheduled: [fileCleanupJob],
  // Thumbnails of uploaded images, in this process and any other.
  jobs: [{ name: 'thumbnails', start: (orm, logger, { files }) => startFileJobs(orm, files, logger) }],
};
