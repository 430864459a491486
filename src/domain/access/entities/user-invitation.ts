import { Entity, Property, Unique } from '@mikro-orm/core';
import { TenantScoped } from '../../../entities/tenant-scoped';

/**
 * The invitation of a user created (or set) INVITED: one per user, a re-invitation replacing its
 * token (invitations.ts). Only a SHA-256 digest of the token is stored, so a row redeems nothing.
 * Not a record with a history (TenantScoped, not Audited) and not published: it is written and
 * spent by invitation-repository.ts's statements (an upsert, and a spend that must happen once).
 */
@Entity({ tableName: 'user_invitation' })
@Unique({ name: 'user_invitation_user_uq', properties: ['tenantId', 'userId'] })
@Unique({ name: 'user_invitation_token_uq', properties: ['tenantId', 'tokenHash'] })
export class UserInvitation extends TenantScoped {
  /** The invited user, of the same tenant (a tenant foreign key of the migration's). */
  @Property({ type: 'uuid' })
  userId!: string;

  @Property({ type: 'text', hidden: true })
  tokenHash!: string;

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  /** When the invitation was redeemed; a spent one redeems nothing. */
  @Property({ type: 'timestamptz', nullable: true })
  usedAt?: Date | null;
}
