import { Entity, Index, Property, Unique } from '@mikro-orm/core';
import { Extensions, Field, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { ImageRef } from './shared';
import { Audited } from './tenant-scoped';
import {
  BooleanColumn,
  DateTimeColumn,
  JsonColumn,
  TenantIndexes,
  TextColumn,
  TextListColumn,
} from './columns';

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
@Unique({ name: 'app_user_tenant_external_subject_uq', properties: ['tenantId', 'externalSubject'] })
@TenantIndexes(
  'app_user',
  'firstName',
  'lastName',
  'hasFullAccess',
  'roles',
  'projectAccess',
  'subsidiaryAccess',
)
@ObjectType({ description: 'A person who signs in to a tenant.' })
export class User extends Audited {
  /** Stored lower-case: e-mail addresses are compared case-insensitively. */
  @TextColumn({
    nullable: false,
    description:
      "The user's e-mail address, unique in the tenant; used to name the user in roles and access lists.",
  })
  email!: string;

  @TextColumn({ description: USER_DOCS.firstName })
  firstName?: string | null;

  @TextColumn({ description: USER_DOCS.lastName })
  lastName?: string | null;

  @TextColumn({ description: USER_DOCS.language })
  language?: string | null;

  @BooleanColumn({
    nullable: false,
    description: 'True when the user sees every subsidiary and project, whatever the access lists say.',
  })
  hasFullAccess: boolean = false;

  @BooleanColumn({ nullable: false, description: USER_DOCS.verified })
  verified: boolean = false;

  @DateTimeColumn({ description: 'When the user last signed in.' })
  lastLogin?: Date | null;

  @Property({ type: 'text' })
  @Index({ name: 'app_user_tenant_status_idx', properties: ['tenantId', 'status'] })
  @Field(() => UserStatus, {
    description:
      'Whether the user may use the service: any status but ACTIVE is refused (401) from the next request.',
  })
  status: UserStatus = UserStatus.ACTIVE;

  @TextListColumn({
    description: "Names of the tenant roles the user holds; the user's permissions are their union.",
  })
  roles: string[] = [];

  @TextListColumn({ description: 'Ids of the projects the user may see (without full access).' })
  projectAccess: string[] = [];

  @TextListColumn({ description: 'Ids of the subsidiaries the user may see (without full access).' })
  subsidiaryAccess: string[] = [];

  @JsonColumn(() => UserProfile, { description: USER_DOCS.profile })
  profile?: UserProfile | null;

  // GraphQL only: the specification's User has no such field, and REST answers keep its shape.
  @Extensions({ rest: false })
  @DateTimeColumn({
    description: 'When the user was last signed out everywhere: credentials issued before then are refused.',
  })
  signedOutAt?: Date | null;

  /**
   * The provider token that asked for the last sign-out (its `jti` or digest): a provider's `iat`
   * is a whole second, so this tells that token from one issued after it in the same second.
   */
  @Property({ type: 'text', nullable: true })
  signedOutTokenId?: string | null;

  /** `<issuer> <subject>` of a user created on first sign-in through an issuer naming users by `sub`. */
  @Property({ type: 'text', nullable: true })
  externalSubject?: string | null;
}
