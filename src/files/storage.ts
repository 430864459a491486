import type { FileBackend } from './backend';
import type { FileSettings } from './settings';

/**
 * What the kernel knows of the process's file store: where the bytes live, the deployment's
 * settings, and the secret that signs the local backend's upload URLs. The stored file's record,
 * its rules and routes are the files module's (src/domain/files/stored-files.ts, whose store
 * is one), handed to the kernel's jobs as this.
 */
export interface FileStorage {
  readonly backend: FileBackend;
  readonly settings: FileSettings;
  readonly uploadSecret: string;
}
