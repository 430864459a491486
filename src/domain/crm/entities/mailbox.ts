import { BigIntType, Entity, Property, Unique } from '@mikro-orm/core';
import { TenantScoped } from '../../../entities/tenant-scoped';

/**
 * A tenant's IMAP mailbox, read by the `crm.mailboxes` job (mailbox-poll.ts). Not a record with
 * a history (TenantScoped, not Audited): its changes become no history entries and no outbox
 * events, and it is published only as the API's own view of it (api/mailbox-inputs.ts), so the
 * encrypted password reaches neither. The password is `lazy` (no read selects it unless it asks
 * for it, as only the job does) and `hidden` (no serialization of the record carries it).
 */
@Entity({ tableName: 'mailbox' })
@Unique({ name: 'mailbox_account_uq', properties: ['tenantId', 'host', 'port', 'username', 'folder'] })
export class Mailbox extends TenantScoped {
  @Property({ type: 'text' })
  host!: string;

  @Property({ type: 'integer' })
  port!: number;

  /** TLS from the start; false: plain or STARTTLS. */
  @Property({ type: 'boolean' })
  secure!: boolean;

  @Property({ type: 'text' })
  username!: string;

  /** AES-256-GCM with MAILBOX_SECRET_KEY (mailbox-secret.ts). */
  @Property({ type: 'text', lazy: true, hidden: true })
  passwordEncrypted!: string;

  @Property({ type: 'text' })
  folder!: string;

  @Property({ type: 'boolean' })
  enabled!: boolean;

  /** The folder's UIDVALIDITY when it was last read: `lastUid` counts within it. */
  @Property({ type: 'text', nullable: true })
  uidValidity?: string | null;

  /** How far the folder has been read. */
  @Property({ type: new BigIntType('number'), nullable: true })
  lastUid?: number | null;

  @Property({ type: 'timestamptz', nullable: true })
  lastPolledAt?: Date | null;

  /** Why the last reading failed; null once a reading succeeds. */
  @Property({ type: 'text', nullable: true })
  lastError?: string | null;
}
