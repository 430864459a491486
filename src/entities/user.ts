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
registerEnumType(UserStatus, {
  name: 'UserStatus',
  description: 'Only ACTIVE users can sign in.',
  valuesConfig: {
    ACTIVE: { description: 'May use the service; the only status that may.' },
    INVITED: { description: 'Invited and not active yet; refused (401) until ACTIVE.' },
    SUSPENDED: { description: 'Temporarily refused (401).' },
    DISABLED: { description: 'Refused (401).' },
  },
});

@ObjectType('UserProfile', { description: 'How a user appears to others.' })
@InputType('UserProfileInput', { description: 'How a user presents themself, as sent.' })
export class UserProfile {
  @Field(() => ImageRef, { nullable: true, description: "The user's picture." }) avatar?: ImageRef;
  @Field(() => ImageRef, { nullable: true, description: "The user's logo." }) logo?: ImageRef;
  @Field(() => String, { nullable: true, description: 'Name shown for the user.' }) displayName?: string;
}

/** What User fields mean, shared with the inputs that set them. */
export const USER_DOCS = {
  firstName: "The user's first name.",
  lastName: "The user's last name.",
  language: "The user's preferred language.",
  profile: 'How the user presents themself.',
  verified: "True once the user's e-mail address is verified.",
} as const;

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
  @Field(() => String, {
    description:
      "The user's e-mail address, unique in the tenant; used to name the user in roles and access lists.",
  })
  email!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: USER_DOCS.firstName })
  firstName?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: USER_DOCS.lastName })
  lastName?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: USER_DOCS.language })
  language?: string;

  @Property({ type: 'boolean' })
  @Field(() => Boolean, {
    description: 'True when the user sees every subsidiary and project, whatever the access lists say.',
  })
  hasFullAccess: boolean = false;

  @Property({ type: 'boolean' })
  @Field(() => Boolean, { description: USER_DOCS.verified })
  verified: boolean = false;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the user last signed in.' })
  lastLogin?: Date;

  @Property({ type: 'text' })
  @Index({ name: 'app_user_tenant_status_idx', properties: ['tenantId', 'status'] })
  @Field(() => UserStatus, {
    description:
      'Whether the user may use the service: any status but ACTIVE is refused (401) from the next request.',
  })
  status: UserStatus = UserStatus.ACTIVE;

  @Property({ type: 'text[]' })
  @Field(() => [String], {
    description: "Names of the tenant roles the user holds; the user's permissions are their union.",
  })
  roles: string[] = [];

  @Property({ type: 'text[]' })
  @Field(() => [String], { description: 'Ids of the projects the user may see (without full access).' })
  projectAccess: string[] = [];

  @Property({ type: 'text[]' })
  @Field(() => [String], { description: 'Ids of the subsidiaries the user may see (without full access).' })
  subsidiaryAccess: string[] = [];

  @Property({ type: 'json', nullable: true })
  @Field(() => UserProfile, { nullable: true, description: USER_DOCS.profile })
  profile?: UserProfile | null;
}
