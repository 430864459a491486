import type { Context } from '../../context';
import { gatherReads } from '../../db/orm-bypass/connection-transaction';
import type { WriteKind } from '../../family/write-hooks';
import { NOTIFICATION_PRODUCERS, type RecordState } from './producers';
import { Recipients } from './recipients';

/**
 * Sends a create's recipient lookups ahead of its flush. The notification producers
 * (produce.ts) judge a change and look up its recipients while it is being flushed: for a create
 * that produces (a feature put in an epic), that lookup was a round trip of its own, between the
 * request's reads and its writes. Judged here from the fields about to be stored, the lookups go
 * out with the request's next statement (its first read, in the same write as BEGIN), and the
 * flush's own lookup of the same takes the answer (recipients.ts). A create whose fields the
 * flush judges otherwise simply looks up as before; nothing is produced from this judgement.
 */
export async function lookAheadForRecipients(ctx: Context, data: unknown, write: WriteKind): Promise<void> {
  const tenantId = ctx.caller?.tenantId;
  if (!write.isNew || !tenantId || !ctx.em.isInTransaction()) return;
  const after = data as RecordState;
  const ahead: (() => void)[] = [];
  const recipients = new Recipients(ctx.em, tenantId, ahead);
  for (const producer of NOTIFICATION_PRODUCERS)
    if (producer.entity === write.entity && producer.happened(undefined, after))
      try {
        // Only its lookups are wanted; what it answers is the flush's to use.
        producer.recipients(recipients, after, undefined).catch(() => undefined);
      } catch {
        // The flush judges the change again, and reports what fails there.
      }
  if (ahead.length === 0) return;
  gatherReads(ctx.em, ahead.length + 1);
  for (const send of ahead) send();
}
