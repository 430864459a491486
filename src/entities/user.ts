import { Entity, Index, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { TenantScoped } from './tenant-scoped';

export enum UserStatus {
  ACTIVE = 'ACTIVE',
  INVITED = 'INVITED',
  SUSPENDED = 'SUSPENDED',
  DISABLED = 'DISABLED',
}
registerEnumType(UserStatus, { name: 'UserStatus', description: 'Only ACTIVE users can sign in.' });

@Entity({ tableName: 'app_user' })
@Unique({ name: 'app_user_tenant_email_uq', properties: ['tenantId', 'email'] })
@ObjectType({ description: 'A person who signs in to a tenant.' })
export class User extends TenantScoped {
  /** Stored lower-case: e-mail addresses are compared case-insensitively. */
  @Property({ type: 'text' })
  @Field(() => String)
  email!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  firstName?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  lastName?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  language?: string;

  @Property({ type: 'boolean' })
  @Field(() => Boolean)
  hasFullAccess: boolean = false;

  @Property({ type: 'boolean' })
  @Field(() => Boolean)
  verified: boolean = false;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  lastLogin?: Date;

  @Property({ type: 'text' })
  @Index({ name: 'app_user_tenant_status_idx', properties: ['tenantId', 'status'] })
  @Field(() => UserStatus)
  status: UserStatus = UserStatus.ACTIVE;

  @Property({ type: 'text[]' })
  @Field(() => [String])
  roles: string[] = [];

  @Property({ type: 'text[]' })
  @Field(() => [String])
  projectAccess: string[] = [];

  @Property({ type: 'text[]' })
  @Field(() => [String])
  subsidiaryAccess: string[] = [];
}
