import type { EntityManager } from '@mikro-orm/core';
import { actorOf } from '../../db/tenancy';
import type { FileEventName } from '../../events/catalog';
import { outboxRow } from '../../events/outbox';
import type { StoredFile } from './entities/stored-file';
import { assetOf } from './stored-files';

/** Queues a file's event in the outbox, in the transaction that stored or deleted it. */
export async function fileEvent(
  em: EntityManager,
  tenantId: string,
  type: FileEventName,
  file: StoredFile,
): Promise<void> {
  const actor = actorOf(em);
  em.persist(
    outboxRow({
      tenantId,
      type,
      resourceType: 'file',
      resourceId: file.id,
      actor: actor ? { userId: actor.userId, email: actor.email } : null,
      data: { ...assetOf(file), mediaType: file.type, sha256: file.sha256 },
    }),
  );
  await em.flush();
}
