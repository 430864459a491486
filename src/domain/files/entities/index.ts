import { FileSettings } from './file-settings';
import { StoredFile } from './stored-file';

/** The files module's tables: the list its registry and the ORM's entity list take. */
export const fileEntities: Function[] = [StoredFile, FileSettings];
