import { Entity, Property, Unique } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { TenantScoped } from './tenant-scoped';
import { BooleanColumn, TextColumn, TextListColumn } from './columns';

/**
 * An OpenID Connect issuer whose access tokens sign people in to the tenant
 * (docs/security.md, "Tokens from the tenant's identity provider"). An issuer URL belongs to one
 * tenant of the deployment (the unique index spans tenants), so a token's `iss` names the one
 * tenant it may act in.
 */
@Entity({ tableName: 'trusted_issuer' })
@Unique({ name: 'trusted_issuer_issuer_uq', properties: ['issuer'] })
@ObjectType({ description: "An OpenID Connect provider trusted to sign the tenant's people in." })
export class TrustedIssuer extends TenantScoped {
  @TextColumn({
    nullable: false,
    description: "The issuer URL, exactly as the tokens' `iss` claim and the discovery document say it.",
  })
  issuer!: string;

  @TextColumn({
    nullable: false,
    description: 'Where the issuer publishes its keys (from its discovery document).',
  })
  jwksUri!: string;

  @TextListColumn({ description: 'Accepted `aud` values: a token must name one of them.' })
  audiences: string[] = [];

  @TextColumn({
    nullable: false,
    description:
      'The claim that names the user: `email` (matched to the e-mail address) or `sub` (matched to the subject the user was created with).',
  })
  userClaim: string = 'email';

  @TextListColumn({
    description: 'E-mail domains whose users may sign in (any when empty), e.g. `acme.com`.',
  })
  allowedDomains: string[] = [];

  @BooleanColumn({
    nullable: false,
    description: 'Whether an unknown user is created on first sign-in (with `createRole`).',
  })
  createUsers: boolean = false;

  @TextColumn({ description: 'The tenant role a user created on first sign-in holds.' })
  createRole?: string | null;

  /** Not published: the kind of keys the issuer's key set held when it was registered. */
  @Property({ type: 'text', nullable: true })
  keyTypes?: string | null;
}
