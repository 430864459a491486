import { Entity, Index, Property, Unique } from '@mikro-orm/core';
import { Field, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from '../graphql/date-time';
import { ImageRef } from './shared';
import { Audited } from './tenant-scoped';

export enum UserStatus {
  ACTIVE = 'ACTIVE',
  INVITED = 'INVITED',
  SUSPENDED = 'SUSPENDED',
  DISABLED = 'DISABLED',
}
registerEnumType(UserStatus, { name: 'UserStatus', description: 'Only ACTIVE users can sign in.' });

@ObjectType('UserProfile', { description: 'How a user appears to others.' })
@InputType('UserProfileInput')
export class UserProfile {
  @Field(() => ImageRef, { nullable: true }) avatar?: ImageRef;
  @Field(() => ImageRef, { nullable: true }) logo?: ImageRef;
  @Field(() => String, { nullable: true }) displayName?: string;
}

/**
 * A user's history (`events`) records every change to its roles, access and status, which is
 * what an access review needs.
 */
@Entity({ tableName: 'app_user' })
@Unique({ name: 'app_user_tenant_email_uq', properties: ['tenantId', 'email'] })
@Index({ name: 'app_user_tenant_first_name_idx', properties: ['tenantId', 'firstName'] })
@Index({ name: 'app_user_tenant_last_name_idx', properties: ['tenantId', 'lastName'] })
@Index({ name: 'app_user_tenant_has_full_access_idx', properties: ['tenantId', 'hasFullAccess'] })
@Index({ name: 'app_user_tenant_roles_idx', properties: ['tenantId', 'roles'] })
@Index({ name: 'app_user_tenant_project_access_idx', properties: ['tenantId', 'projectAccess'] })
@Index({ name: 'app_user_tenant_subsidiary_access_idx', properties: ['tenantId', 'subsidiaryAccess'] })
@ObjectType({ description: 'A person who signs in to a tenant.' })
export class User extends Audited {
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

  @Property({ type: 'json', nullable: true })
  @Field(() => UserProfile, { nullable: true })
  profile?: UserProfile | null;
}
